"use client";
import "client-only";

import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { apiFetch } from "@/lib/browser/api/client";
import { fromBase64, generateVaultKey, randomBytes } from "./crypto";
import { passkeyMethod, passphraseMethod, recoveryMethod, type MethodJson } from "./seal";
import { actionError, info, needRaw, setVault } from "./store";

export const webauthn = () => import("@simplewebauthn/browser");

export function preloadVaultMethods(): void {
  void webauthn().catch(() => undefined);
  void import("hash-wasm").catch(() => undefined);
}

export function passkeysAvailable(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

export type Prf = { enabled?: boolean; results?: { first?: ArrayBuffer | ArrayBufferView } };

export function prfBytes(prf: Prf | undefined): Uint8Array<ArrayBuffer> | null {
  const first = prf?.results?.first;
  if (!first) return null;
  return first instanceof ArrayBuffer ? new Uint8Array(first) : new Uint8Array(first.buffer.slice(first.byteOffset, first.byteOffset + first.byteLength) as ArrayBuffer);
}

export function withoutPrf<T extends { clientExtensionResults: object }>(
  response: T,
): Omit<T, "clientExtensionResults"> & { clientExtensionResults: Record<string, unknown> } {
  const rest = { ...(response.clientExtensionResults as Record<string, unknown>) };
  delete rest.prf;
  return { ...response, clientExtensionResults: rest };
}

/** Register a passkey with the PRF extension and wrap `raw` under its output. @throws AppError (cancelled, no PRF) */
async function newPasskeyMethod(raw: Uint8Array<ArrayBuffer>, userId: string): Promise<MethodJson> {
  const options = await apiFetch("vaultPasskey", { body: { purpose: "register" } });
  const prfInput = randomBytes(32);
  // @simplewebauthn/browser's types lack PRF; it passes `extensions` to the browser as given.
  const extensions: AuthenticationExtensionsClientInputs = { prf: { eval: { first: prfInput } } };
  // Made by @simplewebauthn/server; the contract checks only that it is an object.
  // eslint-disable-next-line no-restricted-syntax
  const optionsJSON = { ...(options as unknown as PublicKeyCredentialCreationOptionsJSON), extensions };
  let registration;
  try {
    registration = await (await webauthn()).startRegistration({ optionsJSON });
  } catch {
    throw actionError("The passkey was not created. Please try again, or use a passphrase.");
  }
  const prf = (registration.clientExtensionResults as { prf?: Prf }).prf;
  if (!prf?.enabled) throw actionError("This passkey cannot protect your history (no PRF support). Use a passphrase instead.");
  let output = prfBytes(prf);
  if (!output) {
    try {
      const credential = (await navigator.credentials.get({
        publicKey: {
          challenge: randomBytes(32),
          allowCredentials: [{ type: "public-key", id: fromBase64url(registration.rawId) }],
          userVerification: "required",
          extensions: { prf: { eval: { first: prfInput } } } as AuthenticationExtensionsClientInputs,
        },
      })) as PublicKeyCredential | null;
      output = prfBytes((credential?.getClientExtensionResults() as { prf?: Prf } | undefined)?.prf);
    } catch {
      output = null;
    }
    if (!output) throw actionError("The passkey did not unlock. Please try again, or use a passphrase.");
  }
  const method = await passkeyMethod(raw, userId, output, prfInput, withoutPrf(registration), "Passkey");
  output.fill(0);
  return method;
}

function fromBase64url(s: string): Uint8Array<ArrayBuffer> {
  return fromBase64(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
}

/** The passphrase when ./strength.ts accepts it, checked again so no path wraps under a guessable one. @throws AppError */
export async function checkPassphrase(passphrase: string): Promise<string> {
  const { ratePassphraseOffThread } = await import("./strength-client");
  const rating = await ratePassphraseOffThread(passphrase);
  if (!rating.acceptable) throw actionError(rating.reason);
  return passphrase;
}

export interface SetupDraft {
  raw: Uint8Array<ArrayBuffer>;
  code: string;
  methods: MethodJson[];
}

export async function draftSetup(choice: { kind: "passkey" } | { kind: "passphrase"; passphrase: string }): Promise<SetupDraft> {
  const userId = info().user_id;
  const raw = generateVaultKey();
  const first =
    choice.kind === "passkey" ? await newPasskeyMethod(raw, userId) : await passphraseMethod(raw, userId, await checkPassphrase(choice.passphrase));
  const recovery = await recoveryMethod(raw, userId);
  return { raw, code: recovery.code, methods: [first, recovery.method] };
}

export async function addPasskey(): Promise<void> {
  const method = await newPasskeyMethod(needRaw(), info().user_id);
  setVault({ info: await apiFetch("vaultAddMethod", { body: { method: method } }) });
}

export async function changePassphrase(passphrase: string): Promise<void> {
  const old = info().methods.filter((m) => m.kind === "passphrase");
  const method = await passphraseMethod(needRaw(), info().user_id, await checkPassphrase(passphrase));
  setVault({ info: await apiFetch("vaultAddMethod", { body: { method: method } }) });
  for (const m of old) setVault({ info: await apiFetch("vaultRemoveMethod", { body: { id: m.id } }) });
}

export async function newRecoveryCode(): Promise<string> {
  const old = info().methods.filter((m) => m.kind === "recovery");
  const { code, method } = await recoveryMethod(needRaw(), info().user_id);
  setVault({ info: await apiFetch("vaultAddMethod", { body: { method: method } }) });
  for (const m of old) setVault({ info: await apiFetch("vaultRemoveMethod", { body: { id: m.id } }) });
  return code;
}

export async function removeMethod(id: string): Promise<void> {
  setVault({ info: await apiFetch("vaultRemoveMethod", { body: { id } }) });
}
