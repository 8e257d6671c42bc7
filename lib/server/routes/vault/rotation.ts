import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { rotationStatus, startRotation } from "@/lib/server/db/queries";
import { toNewMethod } from "@/lib/server/vault/server";

/** GET /api/vault/rotation: the rotation under way (generation null when none) and the chats still under the old key. */
export const GET = route(api.vaultRotation, async ({ user }) => {
  const status = await rotationStatus(user.id);
  return reply(api.vaultRotation, { generation: status?.generation ?? null, remaining_chat_ids: status?.remaining ?? [] }, { headers: PRIVATE_NO_STORE });
});

/** POST /api/vault/rotation: start a rotation; 409 when one is under way or the generation is not the next. */
export const POST = route(api.vaultRotationStart, async ({ request, user, body }) => {
  const methods = [];
  for (const m of body.methods) methods.push(await toNewMethod(request, user.id, m));
  await startRotation(user.id, { generation: body.generation, nextKey: body.next_key, methods });
  const status = await rotationStatus(user.id);
  return reply(api.vaultRotationStart, { generation: status?.generation ?? null, remaining_chat_ids: status?.remaining ?? [] }, { status: 201 });
});
