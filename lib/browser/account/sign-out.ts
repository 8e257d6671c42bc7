"use client";

import { signOut } from "next-auth/react";
import { syncAuthToken } from "./sync";

/**
 * Sign out and reload (docs/product.md §2), even when the request failed: the server decides what the reloaded
 * page shows. The reload also locks the vault, whose key lives only in the page's memory.
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
