import { z } from "@/lib/shared/zod";

/**
 * Request and response schemas of the share routes, listed in the API
 * contract (lib/shared/api/contract.ts). Browser-safe. The server only ever sees the snapshot's ciphertext
 * (base64): the key stays in the link's fragment (lib/browser/share/crypto.ts).
 */

/**
 * Largest snapshot ciphertext, in bytes: 2 MiB of padded plaintext (lib/shared/vault/padding.ts buckets) plus
 * the 29 bytes of format, IV and tag. A chat's text, not its documents, goes into a snapshot.
 */
export const SHARE_MAX_CIPHERTEXT_BYTES = 2 * 1024 * 1024 + 29;
/** Body bytes of POST /api/shares: the base64 of the largest ciphertext and the JSON around it. */
export const SHARE_CREATE_MAX_BODY_BYTES = Math.ceil(SHARE_MAX_CIPHERTEXT_BYTES / 3) * 4 + 256;
/** Body bytes of DELETE /api/shares. */
export const SHARE_DELETE_MAX_BODY_BYTES = 1024;
/** Shares one account may hold at once; revoking one frees its place. */
export const MAX_SHARES_PER_USER = 200;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const base64Length = (s: string) => (s.length / 4) * 3 - (s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0);

/** POST /api/shares `{ ciphertext }`: base64 of the sealed snapshot, at most SHARE_MAX_CIPHERTEXT_BYTES. */
export const shareCreateBodySchema = z.strictObject({
  ciphertext: z
    .string()
    .min(4)
    .refine((s) => s.length % 4 === 0 && BASE64.test(s), "must be base64")
    .refine((s) => base64Length(s) <= SHARE_MAX_CIPHERTEXT_BYTES, `must be at most ${SHARE_MAX_CIPHERTEXT_BYTES} bytes`)
    .meta({ description: "Base64 of the snapshot sealed in the browser under a key the server never receives." }),
});

/** DELETE /api/shares `{ id }`: revoke one of the caller's shares. */
export const shareIdBodySchema = z.strictObject({ id: z.string().uuid() });

/** One share as its owner lists it: no ciphertext, no key. */
export const shareInfoSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  bytes: z.number().int().meta({ description: "Size of the stored ciphertext." }),
});

export const shareCreatedSchema = z.object({ id: z.string(), created_at: z.string() }).meta({ id: "ShareCreated" });
export const shareListSchema = z.object({ shares: z.array(shareInfoSchema) }).meta({ id: "ShareList" });
/** GET /api/shares/{id}: what anyone with the link gets, ciphertext only. */
export const sharedSnapshotSchema = z
  .object({ id: z.string(), created_at: z.string(), ciphertext: z.string().meta({ description: "Base64 of the sealed snapshot." }) })
  .meta({ id: "SharedSnapshot" });

export type ShareInfoJson = z.output<typeof shareInfoSchema>;
