import { z } from "@/lib/shared/zod";
import { decryptField, encryptField, generateVaultKey, importVaultKey, type VaultField } from "@/lib/browser/vault/crypto";

// Share links: a snapshot sealed under a fresh 256-bit key with the vault's field primitive; the key travels only in
// the link's fragment, which browsers never send to a server. The associated data keeps it apart from vault fields.

const SHARE_FIELD: VaultField = { field: "tree", userId: "hush-share", chatId: "snapshot-v1" };

const sharedMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  attachmentName: z.string().optional(),
});

const snapshotSchema = z.object({
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

export async function sealSnapshot(snapshot: SharedSnapshot): Promise<{ ciphertext: Uint8Array<ArrayBuffer>; fragmentKey: string }> {
  const raw = generateVaultKey();
  const key = await importVaultKey(raw);
  const ciphertext = await encryptField(key, SHARE_FIELD, JSON.stringify(snapshotSchema.parse(snapshot)));
  const fragmentKey = toBase64Url(raw);
  raw.fill(0);
  return { ciphertext, fragmentKey };
}

/** Open a shared snapshot with the fragment's key. @returns null when the key or the plaintext is wrong. */
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

export function shareLink(origin: string, id: string, fragmentKey: string): string {
  return `${origin}/share/${encodeURIComponent(id)}#${fragmentKey}`;
}
