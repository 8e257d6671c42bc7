import "server-only";
import { ConfigError, describeDefaults, getConfig } from "@/lib/config";
import { getAuthSecret } from "@/lib/auth/secret";
import { getMasterKeys } from "@/lib/crypto";
import { closeDb, getDb } from "@/lib/db/client";
import { installShutdownHandlers } from "@/lib/lifecycle";
import { closeQuota } from "@/lib/quota";
import { closeRateLimits } from "@/lib/rate-limit";

/**
 * Server start-up (called from instrumentation.ts): validate configuration, log the embedded defaults
 * in use, load the master key, apply database migrations and take over SIGTERM for a graceful shutdown
 * (lib/lifecycle.ts). A configuration error stops the process with a message that names the setting.
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
  installShutdownHandlers({
    graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    closeResources: async () => {
      await Promise.allSettled([closeDb(), closeQuota(), closeRateLimits()]);
    },
  });
  const { basic, pro } = config.llmRoutes;
  console.log(
    `[hush] Ready: database ${config.database.kind}, LLM providers: Basic ${basic.kind} (${basic.providerName}), ` +
      `Pro ${pro.kind} (${pro.providerName}).`,
  );
}
