"use client";

import { signOut } from "next-auth/react";
import { syncAuthToken } from "./sync";

/**
 * docs/product.md §2: "Log out" signs out and reloads the page; the Account Deleted screen's "Go back" too.
 * next-auth's signOut deletes the database session (server side, so a copied cookie stops working
 * at once) and clears the cookie; then the page reloads. A failed sign-out request still reloads:
 * the server decides what the reloaded page shows. The reload also locks the vault: its key
 * lives only in the page's memory (a remembered device, docs/issues.md #21, opens it again after the next sign-in
 * unless Settings' "Log out" was told to forget it). In between, the auth-token sync's DELETE (docs/product.md §7, ./sync.ts).
 */
export async function signOutAndReload(): Promise<void> {
  try {
    await signOut({ redirect: false });
  } catch {
    console.error("Failed to sign out");
  }
  await syncAuthToken(false);
  window.location.reload();
}
