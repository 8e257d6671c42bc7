import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { readMemory, writeMemory } from "@/lib/server/db/memory";

// /api/memory: one ciphertext sealed in the browser; the server stores bytes and a version, never a fact.

export const GET = route(api.memoryGet, async ({ user }) => {
  const stored = await readMemory(user.id);
  return reply(
    api.memoryGet,
    stored
      ? { sealed: Buffer.from(stored.sealed).toString("base64"), version: stored.version, updated_at: stored.updatedAt.toISOString() }
      : { sealed: null, version: 0, updated_at: null },
    { headers: PRIVATE_NO_STORE },
  );
});

/** POST: compare-and-set; 409 without a vault or when another write came first. */
export const POST = route(api.memoryPut, async ({ user, body }) => {
  await writeMemory({ userId: user.id, sealed: body.sealed, version: body.version, baseVersion: body.base_version });
  return reply(api.memoryPut, { ok: true });
});
