import "server-only";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { z } from "@/lib/shared/zod";
import { getConfig } from "@/lib/server/config";
import {
  findPasskey,
  getVaultState,
  saveChallenge,
  takeChallenge,
  type NewVaultMethod,
  type SealedMessage,
  type VaultDeviceInfo,
  type VaultState,
} from "@/lib/server/db/queries";
import type { VaultJson } from "@/lib/shared/api/contract";
import { AppError } from "@/lib/shared/errors";
import { chatIntegritySchema, manifestWriteSchema, sealedMessageSchema, type MethodInput } from "@/lib/shared/vault/schemas";
import type { IntegrityWrite, ManifestWrite } from "@/lib/server/db/sealed-chats";

export { methodSchema, sealed, sealedMessageSchema, type MethodInput } from "@/lib/shared/vault/schemas";

/** Server side of the vault: schemas, WebAuthn ceremonies, JSON shapes. It sees only wrapped keys and ciphertext. */

export function toSealedMessage(m: z.infer<typeof sealedMessageSchema>): SealedMessage {
  return { role: m.role, content: m.content_ciphertext, attachment: m.attachment_ciphertext, steps: m.steps_ciphertext };
}

export function toManifestWrite(m: z.infer<typeof manifestWriteSchema>): ManifestWrite {
  return { ciphertext: m.ciphertext, baseVersion: m.base_version, keyGeneration: m.key_generation };
}

export function toIntegrityWrite(i: z.infer<typeof chatIntegritySchema> | undefined): IntegrityWrite | undefined {
  return i && { header: i.header_ciphertext, baseVersion: i.base_version, manifest: toManifestWrite(i.manifest) };
}

const rpName = "Hush";

function webauthnTargets(request: Request): { origin: string; rpID: string; origins: string[] } {
  const config = getConfig();
  const origins = [new URL(config.APP_URL).origin, ...config.EXTRA_ORIGINS];
  const origin = request.headers.get("origin") ?? origins[0]!;
  if (!origins.includes(origin)) throw new AppError("forbidden:passkey_origin", "Passkeys are not available on this address.");
  return { origin, rpID: new URL(origin).hostname, origins };
}

/** Options for a passkey ceremony (register or unlock); the challenge is stored for the matching verify. */
export async function passkeyOptions(request: Request, user: { id: string; email: string | null }, purpose: "register" | "unlock") {
  const { rpID } = webauthnTargets(request);
  const state = await getVaultState(user.id);
  const passkeys = state.methods.filter((m) => m.kind === "passkey" && m.credentialId);
  if (purpose === "register") {
    const options = await generateRegistrationOptions({
      rpName,
      rpID,
      userName: user.email ?? "Hush account",
      userID: new TextEncoder().encode(user.id),
      attestationType: "none",
      excludeCredentials: passkeys.map((p) => ({ id: p.credentialId! })),
      authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
    });
    await saveChallenge(user.id, options.challenge, "register");
    return options;
  }
  if (!passkeys.length) throw new AppError("not_found:passkey", "No passkey is set up for this account.");
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId! })),
    userVerification: "required",
  });
  await saveChallenge(user.id, options.challenge, "unlock");
  return options;
}

/** @throws AppError 400 when it does not verify. */
async function verifyPasskeyRegistration(request: Request, userId: string, response: Record<string, unknown>) {
  const { origins } = webauthnTargets(request);
  const challenge = await takeChallenge(userId, "register");
  if (!challenge) throw new AppError("bad_request:passkey", "The passkey request expired. Please try again.");
  let result;
  try {
    result = await verifyRegistrationResponse({
      // The schema checks only id, rawId and type; the library checks the rest and throws.
      // eslint-disable-next-line no-restricted-syntax
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: origins.map((o) => new URL(o).hostname),
      requireUserVerification: true,
    });
  } catch {
    throw new AppError("bad_request:passkey", "The passkey could not be verified.");
  }
  if (!result.verified) throw new AppError("bad_request:passkey", "The passkey could not be verified.");
  const { credential } = result.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: new Uint8Array(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}

/** @returns the method id and new counter. @throws AppError 400/404 when it does not verify. */
export async function verifyPasskeyUnlock(request: Request, userId: string, response: Record<string, unknown>) {
  const { origins } = webauthnTargets(request);
  const challenge = await takeChallenge(userId, "unlock");
  if (!challenge) throw new AppError("bad_request:passkey", "The passkey request expired. Please try again.");
  const method = await findPasskey(userId, String(response.id));
  if (!method?.publicKey || !method.credentialId) throw new AppError("not_found:passkey", "This passkey is not set up for this account.");
  let result;
  try {
    result = await verifyAuthenticationResponse({
      // The schema checks only id and type; the library checks the rest and throws.
      // eslint-disable-next-line no-restricted-syntax
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: origins.map((o) => new URL(o).hostname),
      credential: {
        id: method.credentialId,
        publicKey: new Uint8Array(method.publicKey),
        counter: Number(method.counter),
        transports: method.transports as AuthenticatorTransportFuture[],
      },
      requireUserVerification: true,
    });
  } catch {
    throw new AppError("bad_request:passkey", "The passkey could not be verified.");
  }
  if (!result.verified) throw new AppError("bad_request:passkey", "The passkey could not be verified.");
  return { methodId: method.id, counter: result.authenticationInfo.newCounter };
}

export async function toNewMethod(request: Request, userId: string, m: MethodInput): Promise<NewVaultMethod> {
  const kdf: Record<string, unknown> = { salt: m.kdf.salt };
  if (m.kdf.argon2) kdf.argon2 = m.kdf.argon2;
  if (m.kdf.prf_input) kdf.prf_input = m.kdf.prf_input;
  return {
    id: m.id,
    kind: m.kind,
    label: m.label,
    wrappedKey: m.wrapped_key,
    kdf,
    passkey: m.registration ? await verifyPasskeyRegistration(request, userId, m.registration) : undefined,
  };
}

const b64 = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString("base64") : null);

export function vaultStateJson(userId: string, state: VaultState) {
  return {
    /** Bound into every ciphertext's associated data by the browser. */
    user_id: userId,
    exists: state.vault !== null,
    history_on: state.vault?.historyOn ?? false,
    last_unlock_at: state.vault?.lastUnlockAt?.toISOString() ?? null,
    manifest: state.vault?.manifestCiphertext ? { ciphertext: b64(state.vault.manifestCiphertext)!, version: state.vault.manifestVersion } : null,
    key_generation: state.vault?.keyGeneration ?? 0,
    rotation: state.vault?.nextKeyCiphertext
      ? { generation: state.vault.keyGeneration + 1, next_key: b64(state.vault.nextKeyCiphertext)! }
      : null,
    methods: state.methods.map((m) => ({
      id: m.id,
      kind: m.kind,
      label: m.label,
      wrapped_key: b64(m.wrappedKey) ?? "",
      kdf: m.kdf as VaultJson["methods"][number]["kdf"],
      credential_id: m.credentialId,
      created_at: m.createdAt.toISOString(),
      last_used_at: m.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

export function vaultDevicesJson(devices: VaultDeviceInfo[]) {
  return {
    devices: devices.map((d) => ({
      id: d.id,
      name: d.name,
      created_at: d.createdAt.toISOString(),
      last_used_at: d.lastUsedAt?.toISOString() ?? null,
    })),
  };
}
