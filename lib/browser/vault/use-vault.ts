"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import { setVaultError, useVaultStore, type VaultStore } from "./store";

let started = false;

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
