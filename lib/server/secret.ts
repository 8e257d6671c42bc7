import "server-only";
import fs from "node:fs";
import path from "node:path";
import { createHmac, randomBytes } from "node:crypto";
import { ConfigError, getConfig, type Config } from "@/lib/server/config";

/**
 * The sign-in secret: NEXTAUTH_SECRET (required in production), else one generated into <DATA_DIR>/nextauth.secret
 * (0600). Purpose-specific keys are derived from it, never reused.
 */

const DEV_SECRET_FILE = "nextauth.secret";

let cached: { config: Config; secret: string } | undefined;

/** @throws ConfigError in production without NEXTAUTH_SECRET. */
export function getAuthSecret(): string {
  const config = getConfig();
  if (cached?.config === config) return cached.secret;
  const secret = config.NEXTAUTH_SECRET ?? loadDevSecret(config);
  cached = { config, secret };
  return secret;
}

/** A 32-byte key for one purpose, HMAC-SHA-256 of the secret. */
export function deriveAuthKey(purpose: string): Uint8Array {
  return new Uint8Array(createHmac("sha256", getAuthSecret()).update(`hush auth key: ${purpose}`).digest());
}

function loadDevSecret(config: Config): string {
  if (config.isProduction) {
    throw new ConfigError("Missing required setting in production: NEXTAUTH_SECRET. See .env.example.");
  }
  const file = path.join(config.dataDir, DEV_SECRET_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    // "wx": of two processes starting together, one creates the file and the other reads it.
    fs.writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return fs.readFileSync(file, "utf8").trim();
}
