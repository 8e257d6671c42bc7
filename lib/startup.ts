import "server-only";
import { ConfigError, describeDefaults, getConfig } from "@/lib/config";
import { getAuthSecret } from "@/lib/auth/secret";
import { getMasterKeys } from "@/lib/crypto";
import { getDb } from "@/lib/db/client";

/**
 * Server start-up (called from instrumentation.ts): validate configuration, log the embedded defaults
 * in use, load the master key and apply database migrations. A configuration error stops the process
 * with a message that names the setting.
 */
export async function startServer(): Promise<void> {
  let config;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`\n[hush] Cannot start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const defaults = describeDefaults(config);
  if (defaults.length) {
    console.log(`[hush] Using embedded defaults (${config.NODE_ENV}):\n${defaults.map((d) => `  - ${d}`).join("\n")}`);
  }
  await getMasterKeys();
  getAuthSecret();
  await getDb();
  const { basic, pro } = config.llmRoutes;
  console.log(
    `[hush] Ready: database ${config.database.kind}, LLM providers: Basic ${basic.kind} (${basic.providerName}), ` +
      `Pro ${pro.kind} (${pro.providerName}).`,
  );
}
