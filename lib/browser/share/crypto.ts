import { z } from "@/lib/shared/zod";
import { decryptField, encryptField, generateVaultKey, importVaultKey, type VaultField } from "@/lib/browser/vault/crypto";

/**
 * Share links, browser side. A snapshot of a saved chat is sealed under a
 * fresh random 256-bit key with the vault's field primitive (lib/browser/vault/crypto.ts encryptField: AES-256-GCM,
 * random IV, the text padded to a length bucket, format 3), and only the ciphertext is uploaded. The key
 * travels in the link's fragment (/share/<id>#<key>, base64url): browsers never send a fragment to any
 * server, in a request or a Referer. Each key seals exactly one snapshot and nothing else.
 *
 * The associated data binds the ciphertext to the share purpose ("share" in the field's user slot), so a
 * share ciphertext cannot be passed off as a vault field, nor the reverse.
 */

/** The associated-data context of every share snapshot (a fixed purpose: one key per snapshot). */
const SHARE_FIELD: VaultField = { field: "tree", userId: "hush-share", chatId: "snapshot-v1" };

/** One message of a shared snapshot: what the read-only page shows. */
export const sharedMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  attachmentName: z.string().optional(),
});

/** A shared snapshot's plaintext (JSON inside the ciphertext). */
export const snapshotSchema = z.object({
  v: z.literal(1),
  title: z.string(),
  sharedAt: z.string(),
  messages: z.array(sharedMessageSchema),
});

export type SharedSnapshot = z.output<typeof snapshotSchema>;

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=");
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * Seal `snapshot` under a fresh random key.
 * @returns the ciphertext to upload and the key for the link's fragment (43 base64url characters).
 */
export async function sealSnapshot(snapshot: SharedSnapshot): Promise<{ ciphertext: Uint8Array<ArrayBuffer>; fragmentKey: string }> {
  const raw = generateVaultKey();
  const key = await importVaultKey(raw);
  const ciphertext = await encryptField(key, SHARE_FIELD, JSON.stringify(snapshotSchema.parse(snapshot)));
  const fragmentKey = toBase64Url(raw);
  raw.fill(0);
  return { ciphertext, fragmentKey };
}

/**
 * Open a shared snapshot with the key from the link's fragment.
 * @returns null when the key is malformed, does not open the ciphertext, or the plaintext is not a snapshot.
 */
export async function openSnapshot(ciphertext: Uint8Array, fragmentKey: string): Promise<SharedSnapshot | null> {
  const raw = fromBase64Url(fragmentKey);
  if (!raw) return null;
  try {
    const text = await decryptField(await importVaultKey(raw), SHARE_FIELD, ciphertext);
    const parsed = snapshotSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The link to a share: `${origin}/share/<id>#<key>`. */
export function shareLink(origin: string, id: string, fragmentKey: string): string {
  return `${origin}/share/${encodeURIComponent(id)}#${fragmentKey}`;
}
