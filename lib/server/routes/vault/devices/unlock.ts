import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { vaultDeviceShare } from "@/lib/server/db/queries";
import { AppError } from "@/lib/shared/errors";

/** POST /api/vault/devices/unlock: a remembered device's server share (alone it opens nothing); 404 once revoked. */
export const POST = route(
  api.vaultDeviceUnlock,
  async ({ user, body }) => {
    const secret = await vaultDeviceShare(user.id, body.id);
    if (!secret) throw new AppError("not_found:device", "Remembered device not found.");
    return reply(api.vaultDeviceUnlock, { secret: Buffer.from(secret).toString("base64") }, { headers: PRIVATE_NO_STORE });
  },
);
