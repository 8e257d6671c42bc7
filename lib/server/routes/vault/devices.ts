import "server-only";
import { randomBytes } from "node:crypto";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { clientKey } from "@/lib/server/client-address";
import { createVaultDevice, listVaultDevices, revokeVaultDevice } from "@/lib/server/db/queries";
import { consumeDeviceChange } from "@/lib/server/rate-limit";
import { AppError } from "@/lib/shared/errors";
import { DEVICE_SECRET_BYTES } from "@/lib/shared/vault/schemas";
import { vaultDevicesJson } from "@/lib/server/vault/server";

/** GET /api/vault/devices: the caller's remembered devices, oldest first; no secrets. */
export const GET = route(api.vaultDevices, async ({ user }) =>
  reply(api.vaultDevices, vaultDevicesJson(await listVaultDevices(user.id)), { headers: PRIVATE_NO_STORE }),
);

/** POST /api/vault/devices: remember a device; its server share is answered once (201). 409, 400 past the limit, 429. */
export const POST = route(api.vaultDeviceCreate, async ({ request, user, body }) => {
  await consumeDeviceChange(user.id, clientKey(request));
  const secret = new Uint8Array(randomBytes(DEVICE_SECRET_BYTES));
  const { id } = await createVaultDevice(user.id, body.name, secret);
  return reply(api.vaultDeviceCreate, { id, secret: Buffer.from(secret).toString("base64") }, { status: 201, headers: PRIVATE_NO_STORE });
});

/** DELETE /api/vault/devices: revoke a device, its share deleted and vacuumed first; 404, 429. */
export const DELETE = route(api.vaultDeviceRevoke, async ({ request, user, body }) => {
  await consumeDeviceChange(user.id, clientKey(request));
  if (!(await revokeVaultDevice(user.id, body.id))) throw new AppError("not_found:device", "Remembered device not found.");
  return reply(api.vaultDeviceRevoke, vaultDevicesJson(await listVaultDevices(user.id)), { headers: PRIVATE_NO_STORE });
});
