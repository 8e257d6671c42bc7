import "server-only";
import { ConfigError, describeDefaults, getConfig } from "@/lib/server/config";
import { getAuthSecret } from "@/lib/server/secret";
import { closeDb, getDb } from "@/lib/server/db/client";
import { installShutdownHandlers } from "@/lib/server/lifecycle";
import { closeQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { logger, routeConsoleToLogger } from "@/lib/server/log";
import { isAppError } from "@/lib/shared/errors";

/** dev/enclave.ts's starter, handed in by instrumentation.ts so lib never imports dev/. */
export type StartDevEnclave = (port: number, searxngUrl: string | null) => Promise<{ close(): Promise<void> }>;

export type StartDevSearch = (port: number) => Promise<{ close(): Promise<void> }>;

/** Validate configuration, migrate, take over SIGTERM, and start embedded development services. */
export async function startServer(startDevEnclave?: StartDevEnclave, startDevSearch?: StartDevSearch): Promise<void> {
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
  const confidential = config.confidential;
  let devEnclave: { close(): Promise<void> } | null = null;
  let devSearch: { close(): Promise<void> } | null = null;
  if (config.search?.embedded && startDevSearch) {
    try {
      devSearch = await startDevSearch(config.SEARCH_DEV_PORT);
      logger("hush").info({ port: config.SEARCH_DEV_PORT }, "development SearXNG stand-in started (a fixed local corpus)");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      logger("hush").info({ port: config.SEARCH_DEV_PORT }, "development SearXNG stand-in already running on its port; using it");
    }
  }
  if (config.readPageAllowHosts.length) {
    logger("hush").warn({ hosts: config.readPageAllowHosts }, "read page: READ_PAGE_ALLOW_HOSTS exempts these hosts from the public-address rule");
  }
  if (!config.search) logger("hush").info("web search: off for standard models, because SEARXNG_URL is not set (the toggle is not offered for them)");
  if (confidential?.embedded && startDevEnclave) {
    try {
      devEnclave = await startDevEnclave(config.ENCLAVE_PORT, config.search?.baseUrl ?? null);
      logger("hush").info({ port: config.ENCLAVE_PORT }, "development enclave started (development trust: no hardware isolation)");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      logger("hush").info({ port: config.ENCLAVE_PORT }, "development enclave already running on its port; using it");
    }
  }
  if (config.isProduction && confidential?.trust === "development") {
    logger("hush").warn(
      { enclave: confidential.host },
      "CONFIDENTIAL_TRUST=development in production: browsers accept the development enclave, so chats are NOT protected from the operator",
    );
  }
  if (config.database.kind === "pglite" && config.database.durable === false) {
    // The operator's explicit choice: say what it costs.
    logger("hush").warn(
      { dataDir: config.database.dataDir },
      "PGLITE_DURABILITY=off: commits are acknowledged before they reach the disk; a power cut or kernel crash can lose the last ones or corrupt the folder",
    );
  }
  getAuthSecret();
  try {
    await getDb();
  } catch (error) {
    // Next only logs an instrumentation hook's exception and would exit 0.
    const message = error instanceof Error ? error.message : String(error);
    logger("hush").fatal({ err: message, ...(isAppError(error) ? { code: error.code } : {}) }, "Cannot open the database");
    await Promise.allSettled([devEnclave?.close(), devSearch?.close()]);
    process.exit(1);
  }
  installShutdownHandlers({
    graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    closeResources: async () => {
      await closeQuota().catch(() => undefined);
      await Promise.allSettled([closeDb(), closeRateLimits(), devEnclave?.close(), devSearch?.close()]);
    },
  });
  const { basic, pro } = config.llmRoutes;
  logger("hush").info(
    {
      database: config.database.kind,
      basic: `${basic.kind} (${basic.providerName})`,
      pro: `${pro.kind} (${pro.providerName})`,
      confidential: confidential ? `${confidential.models.join(", ")} via ${confidential.host} (${confidential.trust} trust)` : "off",
    },
    "Ready",
  );
}
