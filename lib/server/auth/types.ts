/** The caller of an authenticated endpoint (docs/product.md §3 User, §6 roles). */
export interface AuthUser {
  id: string;
  email: string | null;
  /** The app then shows "Account Deleted" and refuses everything else. */
  deleted: boolean;
  via: "session" | "bearer";
}
