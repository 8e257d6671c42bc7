"use client";
import "client-only";

import { useSyncExternalStore } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import type { SubscriptionJson } from "@/lib/shared/api/contract";

// The account context of docs/product.md §4 as a tiny shared store, so pages that do not need it ship nothing more.
export type Subscription = SubscriptionJson;

export interface AccountState {
  loading: boolean;
  user: { email: string | null } | null;
  subscription: Subscription | null;
  accountDeleted: boolean;
  authSync: boolean;
}

const initial: AccountState = { loading: true, user: null, subscription: null, accountDeleted: false, authSync: false };
let state: AccountState = initial;
let started = false;
const listeners = new Set<() => void>();

function set(next: Partial<AccountState>) {
  state = { ...state, ...next };
  listeners.forEach((l) => l());
}

export async function refreshAccount(): Promise<void> {
  let user: AccountState["user"] = null;
  let authSync = false;
  try {
    const me = await apiFetch("me");
    user = me.user;
    authSync = me.auth_sync === true;
  } catch {
    user = null;
  }
  if (!user) {
    set({ loading: false, user: null, subscription: null, accountDeleted: false, authSync });
    return;
  }
  const [status, subscription] = await Promise.all([
    apiFetch("checkAccountStatus").catch(() => {
      console.error("Failed to fetch account status");
      return { account_deleted: false };
    }),
    apiFetch("checkStripeStatus").catch(() => {
      console.error("Failed to fetch subscription status");
      return null;
    }),
  ]);
  set({ loading: false, user, subscription, accountDeleted: Boolean(status.account_deleted), authSync });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!started) {
    started = true;
    void refreshAccount();
  }
  return () => listeners.delete(listener);
}

export function useAccount(): AccountState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => initial,
  );
}

export function planOf(account: AccountState): "Free" | "Pro" {
  return account.subscription?.plan === "Pro" ? "Pro" : "Free";
}
