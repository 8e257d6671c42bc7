"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import { setVaultError, useVaultStore, type VaultStore } from "./store";

let started = false;

/**
 * The vault store (./store.ts) for a component; when `signedIn`, its first use loads the vault state
 * (GET /api/vault, then a remembered device: ./unlock.ts refreshVault). The unlocking code and its crypto
 * are fetched then, alongside that request, not with the page (docs/issues.md #42: /chat's first load).
 * A chunk that cannot be fetched leaves the vault in status "error", as a failed request does.
 */
export function useVault(signedIn: boolean): VaultStore {
  return useVaultStore(() => {
    if (!signedIn || started) return;
    started = true;
    const state = apiFetch("vaultGet");
    // Awaited by refreshVault, which reports its failure; this only keeps it from counting as unhandled meanwhile.
    state.catch(() => undefined);
    void import("./unlock").then(
      ({ refreshVault }) => refreshVault(state),
      () => {
        console.error("Failed to load the vault state");
        setVaultError();
      },
    );
  });
}
