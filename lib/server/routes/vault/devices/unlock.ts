import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { vaultDeviceShare } from "@/lib/server/db/queries";
import { AppError } from "@/lib/shared/errors";

/**
 * POST /api/vault/devices/unlock `{ id }`: the server's share of a remembered device's wrap
 * recorded as the device's last use and the vault's last unlock. 404 once revoked
 * (or not the caller's); 429 past 30 a minute per user. The share alone opens nothing: the other half
 * is a non-extractable key in that browser's IndexedDB.
 */
export const POST = route(
  api.vaultDeviceUnlock,
  async ({ user, body }) => {
    const secret = await vaultDeviceShare(user.id, body.id);
    if (!secret) throw new AppError("not_found:device", "Remembered device not found.");
    return reply(api.vaultDeviceUnlock, { secret: Buffer.from(secret).toString("base64") }, { headers: PRIVATE_NO_STORE });
  },
);
