import "server-only";
import { ConfigError, describeDefaults, getConfig } from "@/lib/server/config";
import { getAuthSecret } from "@/lib/server/secret";
import { closeDb, getDb } from "@/lib/server/db/client";
import { installShutdownHandlers } from "@/lib/server/lifecycle";
import { closeQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { logger, routeConsoleToLogger } from "@/lib/server/log";
import { isAppError } from "@/lib/shared/errors";

/** Starts the development enclave on a port (dev/enclave.ts, handed in by instrumentation.ts so lib never imports dev/). */
export type StartDevEnclave = (port: number, searxngUrl: string | null) => Promise<{ close(): Promise<void> }>;

/** Starts the development SearXNG stand-in on a port (dev/searxng.ts, handed in by instrumentation.ts). */
export type StartDevSearch = (port: number) => Promise<{ close(): Promise<void> }>;

/**
 * Server start-up (called from instrumentation.ts): validate configuration, log the embedded defaults
 * in use, apply database migrations and take over SIGTERM for a graceful shutdown
 * (lib/server/lifecycle.ts). A configuration error stops the process with a message that names the setting.
 * `startDevEnclave` runs the development enclave in this process when the configuration embeds it.
 */
export async function startServer(startDevEnclave?: StartDevEnclave, startDevSearch?: StartDevSearch): Promise<void> {
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
  const confidential = config.confidential;
  // The embedded default (development, no provider configured): the development enclave runs in this
  // process, so `npm run dev` alone takes the confidential path. An `npm run enclave:dev` already on the
  // port is used as it is.
  let devEnclave: { close(): Promise<void> } | null = null;
  let devSearch: { close(): Promise<void> } | null = null;
  // With the embedded defaults the development SearXNG stand-in answers web searches, for
  // standard models through this server and for confidential ones from the development enclave.
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
    // Allowed only by CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION=1 (lib/server/config.ts refuses it otherwise).
    logger("hush").warn(
      { enclave: confidential.host },
      "CONFIDENTIAL_TRUST=development in production: browsers accept the development enclave, so chats are NOT protected from the operator",
    );
  }
  if (config.database.kind === "pglite" && config.database.durable === false) {
    // The operator's explicit choice (the default is on): say what it costs.
    logger("hush").warn(
      { dataDir: config.database.dataDir },
      "PGLITE_DURABILITY=off: commits are acknowledged before they reach the disk; a power cut or kernel crash can lose the last ones or corrupt the folder",
    );
  }
  getAuthSecret();
  try {
    await getDb();
  } catch (error) {
    // Next only logs an instrumentation hook's exception and the idle process would then exit 0: a
    // server that cannot open its database must say why and exit non-zero (docs/issues.md #53).
    // An AppError (the folder's lock, PGlite's open) says what to do next in its message.
    const message = error instanceof Error ? error.message : String(error);
    logger("hush").fatal({ err: message, ...(isAppError(error) ? { code: error.code } : {}) }, "Cannot open the database");
    await Promise.allSettled([devEnclave?.close(), devSearch?.close()]);
    process.exit(1);
  }
  installShutdownHandlers({
    graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    closeResources: async () => {
      // Visitors' counts kept in memory are written before the database closes (lib/server/quota.ts).
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
