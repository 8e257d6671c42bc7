"use client";

import { useSyncExternalStore } from "react";

/**
 * The account context of spec §4, as a tiny shared store (no provider component, so pages that do not
 * need it ship nothing more): `loading` starts true; `user` is null or the signed-in user;
 * `subscription` is null until fetched and on error; `accountDeleted` is false by default and on error.
 * Subscription and account status are fetched once a user exists.
 */
export interface Subscription {
  plan: "Free" | "Pro";
  status: string;
  [field: string]: unknown;
}

export interface AccountState {
  loading: boolean;
  user: { email: string | null } | null;
  subscription: Subscription | null;
  accountDeleted: boolean;
}

const initial: AccountState = { loading: true, user: null, subscription: null, accountDeleted: false };
let state: AccountState = initial;
let started = false;
const listeners = new Set<() => void>();

function set(next: Partial<AccountState>) {
  state = { ...state, ...next };
  listeners.forEach((l) => l());
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}

/** Fetch the session, then the account status and subscription (spec §4, §8 log texts). */
export async function refreshAccount(): Promise<void> {
  let user: AccountState["user"] = null;
  try {
    const me = await getJson<{ user: { email: string | null } | null }>("/api/me");
    user = me.user;
  } catch {
    user = null;
  }
  if (!user) {
    set({ loading: false, user: null, subscription: null, accountDeleted: false });
    return;
  }
  const [status, subscription] = await Promise.all([
    getJson<{ account_deleted?: boolean }>("/api/check_account_status").catch(() => {
      console.error("Failed to fetch account status");
      return { account_deleted: false };
    }),
    getJson<Subscription>("/api/check_stripe_status").catch(() => {
      console.error("Failed to fetch subscription status");
      return null;
    }),
  ]);
  set({ loading: false, user, subscription, accountDeleted: Boolean(status.account_deleted) });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!started) {
    started = true;
    void refreshAccount();
  }
  return () => listeners.delete(listener);
}

/** The account context; the first component that uses it starts the fetch. */
export function useAccount(): AccountState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => initial,
  );
}

/** The plan that decides model access in the UI (the server enforces it again). */
export function planOf(account: AccountState): "Free" | "Pro" {
  return account.subscription?.plan === "Pro" ? "Pro" : "Free";
}
