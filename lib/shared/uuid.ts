// Chat ids are bound lowercase into each ciphertext's associated data, so stored ids must match LOWERCASE_UUID.

const HEX_GROUPS = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

export const UUID = new RegExp(`^${HEX_GROUPS}$`, "i");

export const LOWERCASE_UUID = new RegExp(`^${HEX_GROUPS}$`);

export function canonicalUuid(value: unknown): string | null {
  return typeof value === "string" && UUID.test(value) ? value.toLowerCase() : null;
}
