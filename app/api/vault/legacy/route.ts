import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { legacyChatsForMigration, replaceLegacyChats } from "@/lib/db/queries";
import { errorResponse, readJsonBody } from "@/lib/http";
import { VAULT_MAX_BODY_BYTES, vaultLegacyBodySchema } from "@/lib/vault/schemas";
import { toSealedMessage } from "@/lib/vault/server";

/**
 * GET /api/vault/legacy: chats saved before the vault (under the server-held key), decrypted one last
 * time for the caller's own browser to re-encrypt under the vault key: `{ chats: [{ chat_id,
 * display_name, messages: [{ role, content, attachment }] }] }`. 409 without a vault.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    const chats = await legacyChatsForMigration(user.id);
    return Response.json(
      {
        chats: chats.map((c) => ({
          chat_id: c.chatId,
          display_name: c.title,
          messages: c.messages.map((m) => ({ role: m.role, content: m.content, attachment: m.attachment ?? null })),
        })),
      },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return errorResponse(error, "vault_legacy");
  }
}

/**
 * POST /api/vault/legacy `{ chats: [{ chat_id, title_ciphertext, messages }] }`: replace legacy chats
 * by their re-encrypted versions; when none is left, the server-held data key is deleted (and the key
 * table vacuumed). Answers `{ replaced, data_key_deleted }`.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const input = await readJsonBody(request, vaultLegacyBodySchema, VAULT_MAX_BODY_BYTES.legacy);
    const result = await replaceLegacyChats(
      user.id,
      input.chats.map((c) => ({ chatId: c.chat_id.toLowerCase(), title: c.title_ciphertext, messages: c.messages.map(toSealedMessage) })),
    );
    return Response.json({ replaced: result.replaced, data_key_deleted: result.dataKeyDeleted });
  } catch (error) {
    return errorResponse(error, "vault_legacy");
  }
}
