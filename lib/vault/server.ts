import "server-only";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
} from "@simplewebauthn/server";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import {
  findPasskey,
  getVaultState,
  saveChallenge,
  takeChallenge,
  type NewVaultMethod,
  type SealedMessage,
  type VaultState,
} from "@/lib/db/queries";
import { ApiError } from "@/lib/http";

/**
 * Server side of the vault (issue 8): request schemas, WebAuthn ceremonies (@simplewebauthn/server)
 * and the JSON shapes of the vault API. The server never sees a vault key, a passphrase, a recovery
 * code or a PRF output: only wrapped keys and ciphertext, which it stores as given.
 */

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Largest ciphertext field accepted, in base64 characters (a 60,000-character PDF text is ~80 KB). */
const MAX_FIELD_B64 = 2_000_000;

/** Base64 of a version-2 vault ciphertext (lib/vault/crypto.ts), decoded to bytes. */
export const sealed = (max = MAX_FIELD_B64) =>
  z
    .string()
    .max(max)
    .regex(B64, "must be base64")
    .transform((v) => new Uint8Array(Buffer.from(v, "base64")))
    .refine((b) => b.length >= 29 && b[0] === 2, "must be a vault ciphertext (format 2)");

const b64bytes = z.string().max(200).regex(B64, "must be base64");

const kdfSchema = z
  .object({
    salt: b64bytes,
    argon2: z
      .object({
        memoryKiB: z.number().int().min(19456).max(4_194_304),
        iterations: z.number().int().min(1).max(20),
        parallelism: z.number().int().min(1).max(16),
      })
      .optional(),
    prf_input: b64bytes.optional(),
  })
  .strict();

/** A WebAuthn response as @simplewebauthn/browser returns it; checked in depth by the library. */
const webauthnResponse = z.object({ id: z.string().max(1500), rawId: z.string().max(1500), type: z.literal("public-key") }).passthrough();

/** One unlock method in a create/add request. */
export const methodSchema = z
  .object({
    id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    kind: z.enum(["passkey", "passphrase", "recovery"]),
    label: z.string().trim().max(60).nullable().default(null),
    wrapped_key: sealed(200),
    kdf: kdfSchema,
    /** Passkeys only: the registration response of the ceremony started by /api/vault/passkey/options. */
    registration: webauthnResponse.optional(),
  })
  .strict()
  .refine((m) => (m.kind === "passkey") === (m.registration !== undefined && m.kdf.prf_input !== undefined), {
    message: "a passkey method needs its registration and PRF input (and only a passkey has them)",
  })
  .refine((m) => (m.kind === "passphrase") === (m.kdf.argon2 !== undefined), {
    message: "a passphrase method needs its Argon2id parameters (and only it has them)",
  });
export type MethodInput = z.infer<typeof methodSchema>;

/** One message of an encrypted turn. */
export const sealedMessageSchema = z
  .object({
    role: z.enum(["user", "assistant", "system"]),
    content_ciphertext: sealed(),
    attachment_ciphertext: sealed().nullable().default(null),
  })
  .strict();

export function toSealedMessage(m: z.infer<typeof sealedMessageSchema>): SealedMessage {
  return { role: m.role, content: m.content_ciphertext, attachment: m.attachment_ciphertext };
}

const rpName = "Hush";

/** The origins passkeys may be used from (APP_URL's and EXTRA_ORIGINS), and their host names (RP ids). */
function webauthnTargets(request: Request): { origin: string; rpID: string; origins: string[] } {
  const config = getConfig();
  const origins = [new URL(config.APP_URL).origin, ...config.EXTRA_ORIGINS];
  // The ceremony runs at whichever allowed origin the page is on (assertSameOrigin already refused others).
  const origin = request.headers.get("origin") ?? origins[0]!;
  if (!origins.includes(origin)) throw new ApiError(403, "Passkeys are not available on this address.");
  return { origin, rpID: new URL(origin).hostname, origins };
}

/**
 * Options for a passkey ceremony; the challenge is stored for the matching verify.
 * register: a new passkey for the user (existing ones excluded); unlock: an assertion by one of theirs.
 */
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
  if (!passkeys.length) throw new ApiError(404, "No passkey is set up for this account.");
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId! })),
    userVerification: "required",
  });
  await saveChallenge(user.id, options.challenge, "unlock");
  return options;
}

/**
 * Verify a registration response (for a passkey method being added) against the stored challenge.
 * @throws ApiError 400 when it does not verify.
 */
export async function verifyPasskeyRegistration(request: Request, userId: string, response: Record<string, unknown>) {
  const { origins } = webauthnTargets(request);
  const challenge = await takeChallenge(userId, "register");
  if (!challenge) throw new ApiError(400, "The passkey request expired. Please try again.");
  let result;
  try {
    result = await verifyRegistrationResponse({
      response: response as never,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: origins.map((o) => new URL(o).hostname),
      requireUserVerification: true,
    });
  } catch {
    throw new ApiError(400, "The passkey could not be verified.");
  }
  if (!result.verified) throw new ApiError(400, "The passkey could not be verified.");
  const { credential } = result.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: new Uint8Array(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}

/**
 * Verify an unlock assertion by one of the user's passkeys. @returns the method id and new counter.
 * @throws ApiError 400/404 when it does not verify.
 */
export async function verifyPasskeyUnlock(request: Request, userId: string, response: Record<string, unknown>) {
  const { origins } = webauthnTargets(request);
  const challenge = await takeChallenge(userId, "unlock");
  if (!challenge) throw new ApiError(400, "The passkey request expired. Please try again.");
  const method = await findPasskey(userId, String(response.id));
  if (!method?.publicKey || !method.credentialId) throw new ApiError(404, "This passkey is not set up for this account.");
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: response as never,
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
    throw new ApiError(400, "The passkey could not be verified.");
  }
  if (!result.verified) throw new ApiError(400, "The passkey could not be verified.");
  return { methodId: method.id, counter: result.authenticationInfo.newCounter };
}

/** A method for storage, verifying a passkey's registration first. */
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

/** GET /api/vault's body. */
export function vaultStateJson(userId: string, state: VaultState) {
  return {
    /** Bound into every ciphertext's associated data by the browser. */
    user_id: userId,
    exists: state.vault !== null,
    history_on: state.vault?.historyOn ?? false,
    last_unlock_at: state.vault?.lastUnlockAt?.toISOString() ?? null,
    legacy_chats: state.legacyChats,
    methods: state.methods.map((m) => ({
      id: m.id,
      kind: m.kind,
      label: m.label,
      wrapped_key: b64(m.wrappedKey),
      kdf: m.kdf,
      credential_id: m.credentialId,
      created_at: m.createdAt.toISOString(),
      last_used_at: m.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

export { b64 as bytesToBase64 };
