"use client";

import { useEffect } from "react";
import { refreshAccount } from "@/lib/browser/account/client";

/** Re-reads the account context on mount, so the header and model picker see a new plan at once. */
export function RefreshAccount() {
  useEffect(() => {
    void refreshAccount();
  }, []);
  return null;
}
