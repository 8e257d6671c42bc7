import "server-only";
import { ConfigError, describeDefaults, getConfig } from "@/lib/config";
import { getAuthSecret } from "@/lib/auth/secret";
import { getMasterKeys } from "@/lib/crypto";
import { closeDb, getDb } from "@/lib/db/client";
import { installShutdownHandlers } from "@/lib/lifecycle";
import { closeQuota } from "@/lib/quota";
import { closeRateLimits } from "@/lib/rate-limit";
import { logger, routeConsoleToLogger } from "@/lib/log";

/**
 * Server start-up (called from instrumentation.ts): validate configuration, log the embedded defaults
 * in use, load the master key, apply database migrations and take over SIGTERM for a graceful shutdown
 * (lib/lifecycle.ts). A configuration error stops the process with a message that names the setting.
 */
export async function startServer(): Promise<void> {
  // Production output is JSON lines only; `next dev` keeps its own readable compile messages.
  if (process.env.NODE_ENV === "production") routeConsoleToLogger();
  let config;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger("hush").fatal({ err: error.message }, "Cannot start");
      process.exit(1);
    }
    throw error;
  }
  const defaults = describeDefaults(config);
  if (defaults.length) {
    logger("hush").info({ defaults }, `Using embedded defaults (${config.NODE_ENV})`);
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
  logger("hush").info(
    { database: config.database.kind, basic: `${basic.kind} (${basic.providerName})`, pro: `${pro.kind} (${pro.providerName})` },
    "Ready",
  );
}
