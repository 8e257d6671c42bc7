import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium (Playwright cannot download its own browser here).
 * Three app instances of the production build (`npm test` builds it first), each on a fresh data folder:
 * the main one, one with tiny quotas, one whose models are served by the development enclave; and the
 * test peers of tests/helpers (mail, OpenID Connect, LLM, Stripe, auth-token sync) and the enclave.
 */
export const E2E_APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const APP_PORT = E2E_APP_PORT;
const LLM_PORT = Number(process.env.E2E_LLM_PORT ?? 4010);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? ".data-e2e";
/** The main instance's output, stdout and stderr (stderr also reaches Playwright's): e2e/voice-canary.spec.ts reads it. */
export const E2E_APP_LOG = `${E2E_DATA_DIR}.log`;
/** Test peers for sign-in: an SMTP server (mail readable over HTTP) and an OpenID Connect issuer. */
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 4025);
export const E2E_MAIL_HTTP_PORT = Number(process.env.E2E_MAIL_HTTP_PORT ?? 4026);
export const E2E_OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 4030);
const OIDC_PORT = E2E_OIDC_PORT;
export const E2E_GOOGLE_CLIENT_ID = "e2e-google-client.apps.example.test";
/** The fake Stripe API (tests/helpers/fake-stripe-server.ts): Checkout page, then signed webhooks to the app. */
export const E2E_STRIPE_PORT = Number(process.env.E2E_STRIPE_PORT ?? 4040);
const STRIPE_WEBHOOK_SECRET = "whsec_e2e_0123456789abcdef";
/** The auth-token sync receiver (docs/product.md §7; tests/helpers/auth-sync-receiver.ts, e2e/auth-sync.spec.ts). */
export const E2E_AUTH_SYNC_PORT = Number(process.env.E2E_AUTH_SYNC_PORT ?? 4050);
export const E2E_AUTH_SYNC_SECRET = "e2e-auth-sync-secret-0123456789abcdef";
/**
 * A second app instance with tiny daily quotas for e2e/billing.spec.ts; the main one has generous quotas
 * because the other specs send many visitor messages from 127.0.0.1.
 */
export const E2E_QUOTA_APP_PORT = Number(process.env.E2E_QUOTA_APP_PORT ?? APP_PORT + 1);
export const E2E_QUOTA_LIMIT = 2;
/** The quota instance's dictation seconds per visitor and day (STT_SECONDS_PER_DAY_VISITOR). */
export const E2E_STT_QUOTA_SECONDS = 4;
/** The development server (`npm run dev`: server.mjs --dev) that e2e/console.spec.ts starts itself, to check its console. */
export const E2E_DEV_PORT = Number(process.env.E2E_DEV_PORT ?? APP_PORT + 2);
/**
 * Confidential inference (e2e/confidential.spec.ts): the development enclave, whose `--test-controls` let a
 * spec switch it to a tampered measurement for a while, and an app instance with CONFIDENTIAL_* pointing at
 * it (development trust, allowed in production for the test). It writes its output to
 * E2E_CONFIDENTIAL_LOG, so the spec can check no message text reached a log.
 */
export const E2E_CONFIDENTIAL_APP_PORT = Number(process.env.E2E_CONFIDENTIAL_APP_PORT ?? APP_PORT + 3);
export const E2E_ENCLAVE_PORT = Number(process.env.E2E_ENCLAVE_PORT ?? APP_PORT + 5);
const ENCLAVE_PORT = E2E_ENCLAVE_PORT;
/**
 * Web search (e2e/web-search.spec.ts): the fake SearXNG (dev/searxng.ts, a fixed corpus; its received queries at
 * GET /__queries), which the main instance's SEARXNG_URL names.
 */
export const E2E_SEARCH_PORT = Number(process.env.E2E_SEARCH_PORT ?? 4060);
export const E2E_CONFIDENTIAL_DATA_DIR = `${E2E_DATA_DIR}-confidential`;
export const E2E_CONFIDENTIAL_LOG = `${E2E_DATA_DIR}-confidential.log`;

/** The environment of an app instance whose every model is served by the enclave on `enclavePort`. */
function confidentialApp(port: number, enclavePort: number, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    ENCRYPTION_MASTER_KEY: "dGVzdC1rZXktZm9yLWUyZS1vbmx5LTMyLWJ5dGVzISE=",
    LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
    LLM_API_KEY: "test",
    LLM_TIMEOUT_MS: "5000",
    DATABASE_URL: "",
    NEXTAUTH_SECRET: "e2e-nextauth-secret-0123456789abcdef0123456789",
    EMAIL_SERVER: `smtp://127.0.0.1:${SMTP_PORT}`,
    EMAIL_FROM: "Hush <no-reply@hush.test>",
    REDIS_URL: "",
    QUOTA_VISITOR_PER_DAY: "100000",
    QUOTA_FREE_PER_DAY: "100000",
    QUOTA_PRO_PER_DAY: "100000",
    EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR: "100000",
    CONFIDENTIAL_BASE_URL: `http://127.0.0.1:${enclavePort}`,
    CONFIDENTIAL_API_KEY: "e2e-enclave-key",
    CONFIDENTIAL_MODELS: "llama3-8b-8192,llama3-70b-8192",
    CONFIDENTIAL_MODEL_BASIC: "hush-dev-basic",
    CONFIDENTIAL_MODEL_PRO: "hush-dev-pro",
    CONFIDENTIAL_TRUST: "development",
    CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION: "1",
    // The built-in test device tool (e2e/device-tools.spec.ts); off by default.
    CHAT_DEVICE_TOOLS: "device_time",
    // docs/issues.md #23: the Basic model takes images, encrypted to the enclave like text (e2e/vision.spec.ts).
    LLM_VISION_MODELS: "llama3-8b-8192",
  };
}

/**
 * The specs that read or set a peer's shared state: the fake LLM's request log (`/__requests`), the fake SearXNG's
 * queries, the OpenID Connect issuer's identity, the auth-sync receiver, the tiny-quota instance, the enclave's
 * tamper switch, the confidential instance's log, the main instance's log and the transcribers' set text
 * (voice-canary), the development server, and run_code's 12 s stop. They run one at a time in the "shared" project,
 * after the "isolated" one (whose files run E2E_WORKERS at a time, each file in one worker).
 */
const SHARED_STATE = [
  "auth-sync", "auth", "google-popup", "billing", "security", "share-files", "vision", "chat", "context", "device-tools",
  "memory", "project-files", "projects", "web-search", "confidential", "console", "run-code", "voice-canary",
].map((name) => `**/${name}.spec.ts`);
const browserUse = { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } };

export default defineConfig({
  testDir: "./e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // scripts/test.sh runs them as two stages (`--project=isolated`, then `--project=shared --no-deps`).
  projects: [
    { name: "isolated", testIgnore: SHARED_STATE, use: browserUse },
    { name: "shared", testMatch: SHARED_STATE, workers: 1, dependencies: ["isolated"], use: browserUse },
  ],
  webServer: [
    {
      command: `npx tsx tests/helpers/smtp-server.ts --smtp-port ${SMTP_PORT} --http-port ${E2E_MAIL_HTTP_PORT}`,
      url: `http://127.0.0.1:${E2E_MAIL_HTTP_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx tsx tests/helpers/oidc-server.ts --port ${OIDC_PORT} --client-id ${E2E_GOOGLE_CLIENT_ID}`,
      url: `http://127.0.0.1:${OIDC_PORT}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx tsx tests/helpers/fake-llm-server.ts --port ${LLM_PORT}`,
      url: `http://127.0.0.1:${LLM_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command:
        `npx tsx tests/helpers/fake-stripe-server.ts --port ${E2E_STRIPE_PORT} ` +
        `--webhook-url http://127.0.0.1:${APP_PORT}/api/stripe/webhook --webhook-secret ${STRIPE_WEBHOOK_SECRET}`,
      url: `http://127.0.0.1:${E2E_STRIPE_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx tsx scripts/search-dev.ts --port ${E2E_SEARCH_PORT}`,
      url: `http://127.0.0.1:${E2E_SEARCH_PORT}/__queries`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx tsx tests/helpers/auth-sync-receiver.ts --port ${E2E_AUTH_SYNC_PORT} --secret ${E2E_AUTH_SYNC_SECRET}`,
      url: `http://127.0.0.1:${E2E_AUTH_SYNC_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // stdout to the log only (Playwright ignores a server's stdout), stderr to the log and on to Playwright.
      command: `rm -rf ${E2E_DATA_DIR} ${E2E_APP_LOG} && node --require ./deploy/http-timeouts.cjs server.mjs -p ${APP_PORT} -H 127.0.0.1 2>&1 >>${E2E_APP_LOG} | tee -a ${E2E_APP_LOG} >&2`,
      url: `http://127.0.0.1:${APP_PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        APP_URL: `http://127.0.0.1:${APP_PORT}`,
        // e2e/vault.spec.ts runs on localhost: WebAuthn refuses a bare IP address as RP id.
        EXTRA_ORIGINS: `http://localhost:${APP_PORT}`,
        DATA_DIR: E2E_DATA_DIR,
        LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
        LLM_API_KEY: "test",
        LLM_TIMEOUT_MS: "5000",
        DATABASE_URL: "",
        // Sign-in (e2e/auth.spec.ts): a fixed secret (required in production), the SMTP and OpenID
        // Connect test peers started below.
        NEXTAUTH_SECRET: "e2e-nextauth-secret-0123456789abcdef0123456789",
        EMAIL_SERVER: `smtp://127.0.0.1:${SMTP_PORT}`,
        EMAIL_FROM: "Hush <no-reply@hush.test>",
        GOOGLE_CLIENT_ID: E2E_GOOGLE_CLIENT_ID,
        GOOGLE_CLIENT_SECRET: "e2e-google-secret",
        GOOGLE_ISSUER: `http://127.0.0.1:${OIDC_PORT}`,
        DESKTOP_APP_REDIRECT_URL: "hush://auth",
        // Auth-token sync (e2e/auth-sync.spec.ts): every sign-in and sign-out reaches the test receiver.
        AUTH_SYNC_URL: `http://127.0.0.1:${E2E_AUTH_SYNC_PORT}/auth-token`,
        AUTH_SYNC_SECRET: E2E_AUTH_SYNC_SECRET,
        REDIS_URL: "",
        // As behind nginx on the same host (docs/deploy.md): Playwright's 127.0.0.1 is the proxy, so
        // e2e/billing.spec.ts may choose a country with X-Forwarded-For. The quota instance trusts none.
        TRUSTED_PROXIES: "127.0.0.1",
        // Billing (e2e/billing.spec.ts): the fake Stripe, and quotas no other spec can reach.
        STRIPE_SECRET_KEY: "sk_test_e2e",
        STRIPE_WEBHOOK_SECRET,
        STRIPE_API_BASE: `http://127.0.0.1:${E2E_STRIPE_PORT}`,
        QUOTA_VISITOR_PER_DAY: "100000",
        QUOTA_FREE_PER_DAY: "100000",
        QUOTA_PRO_PER_DAY: "100000",
        // Images (e2e/vision.spec.ts): the Basic model reads them here; the quota instance keeps it text-only
        // for the refusal (e2e/share-files.spec.ts).
        LLM_VISION_MODELS: "llama3-8b-8192",
        // Standard models search through the fake SearXNG (e2e/web-search.spec.ts).
        SEARXNG_URL: `http://127.0.0.1:${E2E_SEARCH_PORT}`,
        // Pages to read (e2e/read-page.spec.ts): the SearXNG stand-in's own (dev/searxng.ts DEV_PAGES).
        READ_PAGE_ALLOW_HOSTS: `127.0.0.1:${E2E_SEARCH_PORT}`,
        // The built-in test device tool (e2e/device-tools.spec.ts); off by default.
        CHAT_DEVICE_TOOLS: "device_time",
        // Dictation (e2e/voice.spec.ts): standard models' audio goes to the fake LLM server's Groq transcription API.
        STT_PROVIDER: "groq",
        STT_BASE_URL: `http://127.0.0.1:${LLM_PORT}`,
        STT_API_KEY: "test",
        // Every spec signs in by e-mail from 127.0.0.1: more than the default 20 links an hour per client.
        // The limit itself is tested in tests/auth/rate-limit.test.ts.
        EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR: "100000",
        // Revokes, rotations and deletions of many specs in a row: each waits for the next key vacuum pass.
        // The batching itself is tested in tests/api/vault-devices.test.ts.
        KEY_VACUUM_INTERVAL_SECONDS: "1",
      },
    },
    {
      command: `rm -rf ${E2E_DATA_DIR}-quota && node --require ./deploy/http-timeouts.cjs server.mjs -p ${E2E_QUOTA_APP_PORT} -H 127.0.0.1`,
      url: `http://127.0.0.1:${E2E_QUOTA_APP_PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        APP_URL: `http://127.0.0.1:${E2E_QUOTA_APP_PORT}`,
        DATA_DIR: `${E2E_DATA_DIR}-quota`,
        LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
        LLM_API_KEY: "test",
        LLM_TIMEOUT_MS: "5000",
        DATABASE_URL: "",
        NEXTAUTH_SECRET: "e2e-nextauth-secret-0123456789abcdef0123456789",
        EMAIL_SERVER: `smtp://127.0.0.1:${SMTP_PORT}`,
        EMAIL_FROM: "Hush <no-reply@hush.test>",
        REDIS_URL: "",
        QUOTA_VISITOR_PER_DAY: String(E2E_QUOTA_LIMIT),
        QUOTA_FREE_PER_DAY: String(E2E_QUOTA_LIMIT),
        // Dictation's day (e2e/voice.spec.ts): a visitor's few seconds, used up by a second short recording.
        STT_PROVIDER: "groq",
        STT_BASE_URL: `http://127.0.0.1:${LLM_PORT}`,
        STT_API_KEY: "test",
        STT_SECONDS_PER_DAY_VISITOR: String(E2E_STT_QUOTA_SECONDS),
      },
    },
    {
      command: `npx tsx --conditions=react-server scripts/enclave-dev.ts --port ${ENCLAVE_PORT} --test-controls`,
      url: `http://127.0.0.1:${ENCLAVE_PORT}/.well-known/tinfoil-attestation`,
      reuseExistingServer: false,
      timeout: 30_000,
      // The enclave reads pages itself (e2e/read-page.spec.ts): the SearXNG stand-in's, under the same guard.
      env: { READ_PAGE_ALLOW_HOSTS: `127.0.0.1:${E2E_SEARCH_PORT}` },
    },
    {
      // Output to a file: e2e/confidential.spec.ts greps it for the canary.
      command: `rm -rf ${E2E_CONFIDENTIAL_DATA_DIR} ${E2E_CONFIDENTIAL_LOG} && node --require ./deploy/http-timeouts.cjs server.mjs -p ${E2E_CONFIDENTIAL_APP_PORT} -H 127.0.0.1 > ${E2E_CONFIDENTIAL_LOG} 2>&1`,
      url: `http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: confidentialApp(E2E_CONFIDENTIAL_APP_PORT, ENCLAVE_PORT, E2E_CONFIDENTIAL_DATA_DIR),
    },
  ],
});
