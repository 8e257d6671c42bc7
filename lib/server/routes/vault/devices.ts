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

/**
 * POST /api/vault/devices `{ name }`: remember a device. The server makes its share (32 random bytes),
 * keeps it and answers it once with the new id (201); the browser wraps the vault key under it and a
 * key of its own. 409 without a vault, 400 past MAX_REMEMBERED_DEVICES, 429 past the device-change limits
 * (lib/server/rate-limit.ts consumeDeviceChange, shared with DELETE).
 */
export const POST = route(api.vaultDeviceCreate, async ({ request, user, body }) => {
  await consumeDeviceChange(user.id, clientKey(request));
  const secret = new Uint8Array(randomBytes(DEVICE_SECRET_BYTES));
  const { id } = await createVaultDevice(user.id, body.name, secret);
  return reply(api.vaultDeviceCreate, { id, secret: Buffer.from(secret).toString("base64") }, { status: 201, headers: PRIVATE_NO_STORE });
});

/**
 * DELETE /api/vault/devices `{ id }`: revoke a remembered device (its share is deleted and vacuumed before the
 * answer, lib/server/db/key-vacuum.ts); 404 when not the caller's; 429 past the device-change limits.
 */
export const DELETE = route(api.vaultDeviceRevoke, async ({ request, user, body }) => {
  await consumeDeviceChange(user.id, clientKey(request));
  if (!(await revokeVaultDevice(user.id, body.id))) throw new AppError("not_found:device", "Remembered device not found.");
  return reply(api.vaultDeviceRevoke, vaultDevicesJson(await listVaultDevices(user.id)), { headers: PRIVATE_NO_STORE });
});
