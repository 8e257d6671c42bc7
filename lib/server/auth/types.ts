/** The caller of an authenticated endpoint (docs/product.md §3 User, §6 roles). */
export interface AuthUser {
  id: string;
  email: string | null;
  /** The account is flagged deleted: the app shows "Account Deleted" and refuses everything else. */
  deleted: boolean;
  /** How the caller proved who they are: the session cookie, or a Google ID token (desktop app). */
  via: "session" | "bearer";
}
