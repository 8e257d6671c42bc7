"use client";

import dynamic from "next/dynamic";

// Loaded only for a deleted account, so visitors' pages do not ship the sign-out client.
/** The "Account Deleted" screen (components/account), handed to the header, which shows it for a deleted account. */
export const AccountDeleted = dynamic(
  () => import("@/components/account/account-deleted-screen").then((m) => m.AccountDeletedScreen),
  { ssr: false },
);
