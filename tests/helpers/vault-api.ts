import { expect } from "vitest";
import { POST as vaultCreate } from "@/app/api/vault/route";
import { getConfig } from "@/lib/server/config";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { passphraseMethod, recoveryMethod } from "@/lib/browser/vault/seal";
import { sessionCookieFor } from "./auth";

/**
 * Route tests of saved history (the vault, docs/issues.md #8) play the browser: a signed-in person holds the vault
 * key, and requests go to the real handlers with the app's own origin.
 */
export interface Person {
  id: string;
  cookie: string;
  key: CryptoKey;
  /** The raw vault key (the integrity key derives from it: docs/issues.md #21). */
  raw: Uint8Array<ArrayBuffer>;
}

/**
 * A request to a route handler at APP_URL: same-origin `Origin` unless `origin` says otherwise; `body`
 * is sent as JSON, `raw` as it is (with `type`, default application/json).
 */
export function req(path: string, init: { method?: string; cookie?: string; body?: unknown; origin?: string; raw?: string; type?: string } = {}): Request {
  const origin = new URL(getConfig().APP_URL).origin;
  const headers: Record<string, string> = { Origin: init.origin ?? origin };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.body !== undefined || init.raw !== undefined) headers["Content-Type"] = init.type ?? "application/json";
  return new Request(`${origin}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
}

/** Sign user `id` in and set up their vault as the browser does (passphrase + recovery code); the key stays here. */
export async function withVault(id: string): Promise<Person> {
  const cookie = await sessionCookieFor(id);
  const raw = generateVaultKey();
  const methods = [await passphraseMethod(raw, id, "amber kettles hum beside lighthouses"), (await recoveryMethod(raw, id)).method];
  expect((await vaultCreate(req("/api/vault", { method: "POST", cookie, body: { methods } }))).status).toBe(201);
  return { id, cookie, key: await importVaultKey(raw), raw };
}
