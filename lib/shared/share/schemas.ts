import { z } from "@/lib/shared/zod";

/** Largest snapshot ciphertext, in bytes: 2 MiB of padded plaintext plus 29 bytes of format, IV and tag. */
export const SHARE_MAX_CIPHERTEXT_BYTES = 2 * 1024 * 1024 + 29;
export const SHARE_CREATE_MAX_BODY_BYTES = Math.ceil(SHARE_MAX_CIPHERTEXT_BYTES / 3) * 4 + 256;
export const SHARE_DELETE_MAX_BODY_BYTES = 1024;
export const MAX_SHARES_PER_USER = 200;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const base64Length = (s: string) => (s.length / 4) * 3 - (s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0);

export const shareCreateBodySchema = z.strictObject({
  ciphertext: z
    .string()
    .min(4)
    .refine((s) => s.length % 4 === 0 && BASE64.test(s), "must be base64")
    .refine((s) => base64Length(s) <= SHARE_MAX_CIPHERTEXT_BYTES, `must be at most ${SHARE_MAX_CIPHERTEXT_BYTES} bytes`)
    .meta({ description: "Base64 of the snapshot sealed in the browser under a key the server never receives." }),
});

export const shareIdBodySchema = z.strictObject({ id: z.string().uuid() });

const shareInfoSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  bytes: z.number().int().meta({ description: "Size of the stored ciphertext." }),
});

export const shareCreatedSchema = z.object({ id: z.string(), created_at: z.string() }).meta({ id: "ShareCreated" });
export const shareListSchema = z.object({ shares: z.array(shareInfoSchema) }).meta({ id: "ShareList" });
export const sharedSnapshotSchema = z
  .object({ id: z.string(), created_at: z.string(), ciphertext: z.string().meta({ description: "Base64 of the sealed snapshot." }) })
  .meta({ id: "SharedSnapshot" });

export type ShareInfoJson = z.output<typeof shareInfoSchema>;
