/**
 * The instances bench/perf/run.ts measures (docs/issues.md #12, #24): ports, each app instance's
 * environment, the seeded user (session, vault, sealed history), sealed chat_save bodies made ahead of
 * the timed loops, and the start of an app instance through `npm start`'s own command, so the bench
 * exercises whatever server `npm start` runs (Next's `next start`, or a custom server in front of it).
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { sealTurn, type PlainMessage } from "@/lib/browser/vault/seal";
import { start } from "./processes";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const BASE = Number(process.env.PERF_PORT_BASE ?? 5851);
/** Ports from PERF_PORT_BASE (default 5851) up. */
export const PORT = {
  llm: BASE,
  bare: BASE + 1,
  lite: BASE + 2,
  pg: BASE + 3,
  floor: BASE + 4,
  conf: BASE + 5,
  enclave: BASE + 6,
  bareEnclave: BASE + 7,
  bareStore: BASE + 8,
};
/** The fake model's answer (bench/perf/fake-llm.mjs, 64 deltas); the bench's enclave streams the same text. */
export const ANSWER = "Hello" + " tok".repeat(63);
/** The public model code of every bench turn (Basic, docs/product.md §9). */
export const MODEL = "llama3-8b-8192";

/**
 * The environment of one app instance: production, its own data folder, the fake model, no Redis,
 * quotas out of reach; `confidential`: CONFIDENTIAL_* pointing at the bench's development enclave
 * (development trust, as bench/confidential-relay.ts and playwright.config.ts configure it).
 */
export function appEnv(port: number, dataDir: string, databaseUrl: string, confidential = false): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: "",
    NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
    LLM_BASE_URL: `http://127.0.0.1:${PORT.llm}/v1`,
    LLM_API_KEY: "bench",
    GROQ_API_KEY: "",
    QUOTA_VISITOR_PER_DAY: "1000000000",
    QUOTA_FREE_PER_DAY: "1000000000",
    QUOTA_PRO_PER_DAY: "1000000000",
    // The zero-delay fake model also answers SearXNG's JSON API (bench/perf/fake-llm.mjs).
    SEARXNG_URL: `http://127.0.0.1:${PORT.llm}`,
    SEARCH_PER_DAY_VISITOR: "1000000000",
    SEARCH_PER_DAY_FREE: "1000000000",
    SEARCH_PER_DAY_PRO: "1000000000",
  };
  if (confidential) {
    Object.assign(env, {
      CONFIDENTIAL_BASE_URL: `http://127.0.0.1:${PORT.enclave}`,
      CONFIDENTIAL_API_KEY: "bench-enclave-key",
      CONFIDENTIAL_MODELS: MODEL,
      CONFIDENTIAL_MODEL_BASIC: "hush-dev-basic",
      CONFIDENTIAL_MODEL_PRO: "hush-dev-pro",
      CONFIDENTIAL_TRUST: "development",
      CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION: "1",
    });
  }
  return env;
}

export interface Seeded {
  userId: string;
  cookie: string;
  /** Id of the 20-message chat (PostgreSQL only; "" otherwise). */
  longChat: string;
  key: CryptoKey;
}

/**
 * Migrate, create a user, a session and the user's vault (docs/issues.md #8: the server only needs the vault row;
 * the key stays here, as in the browser); with `withHistory` also 60 sealed chats plus one of 20 messages,
 * stored through the same code as POST /api/ns/chat_save (chatSaveBodySchema + saveSealedTurn).
 */
export async function seed(env: Record<string, string>, withHistory: boolean): Promise<Seeded> {
  // This process's environment is the base of every instance started later: put it back afterwards.
  const saved = { ...process.env };
  try {
    return await seedWith(env, withHistory);
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

async function seedWith(env: Record<string, string>, withHistory: boolean): Promise<Seeded> {
  Object.assign(process.env, env, { NODE_ENV: "test" });
  const { resetConfigForTests } = await import("../../tests/helpers/process-state");
  resetConfigForTests();
  const { getDb, closeDb } = await import("@/lib/server/db/client");
  const { hashSessionToken } = await import("@/lib/server/db/sessions");
  const { sessionCookieName } = await import("@/lib/server/auth/cookies");
  const db = await getDb();
  const user = await db.user.create({ data: { email: `bench-${randomBytes(4).toString("hex")}@example.com` } });
  const token = randomBytes(32).toString("base64url");
  await db.session.create({
    data: { sessionToken: hashSessionToken(token), userId: user.id, expires: new Date(Date.now() + 86_400_000) },
  });
  await db.vault.create({ data: { userId: user.id } });
  const key = await importVaultKey(generateVaultKey());
  let longChat = "";
  if (withHistory) {
    const { saveSealedTurn } = await import("@/lib/server/db/queries");
    const { chatSaveBodySchema } = await import("@/lib/shared/vault/schemas");
    const { toSealedMessage } = await import("@/lib/server/vault/server");
    const store = async (messages: PlainMessage[], title: string) => {
      const chatId = crypto.randomUUID();
      const input = chatSaveBodySchema.parse(await sealTurn({ key, userId: user.id, chatId, create: true, firstPosition: 0, messages, title }));
      await saveSealedTurn({
        userId: user.id,
        chatId,
        create: true,
        title: input.title_ciphertext,
        firstPosition: 0,
        messages: input.messages.map(toSealedMessage),
      });
      return chatId;
    };
    for (let i = 0; i < 60; i++) {
      await store(
        [
          { role: "user", content: `Question ${i} `.repeat(20) },
          { role: "assistant", content: `Answer ${i} `.repeat(80) },
        ],
        `Chat number ${i} about something`,
      );
    }
    const messages: PlainMessage[] = Array.from({ length: 20 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: (i % 2 ? "An answer of a few sentences. " : "A question. ").repeat(i % 2 ? 20 : 4),
    }));
    longChat = await store(messages, "A twenty-message chat");
  }
  await closeDb();
  return { userId: user.id, cookie: `${sessionCookieName()}=${token}`, longChat, key };
}

/**
 * Sealed chat_save bodies for new chats of `userId` (create: true, a fresh chat id each), made ahead
 * of the timed loops: in the product the browser seals while the answer streams in, so only the POST
 * is on the clock. `take()` seals on the spot if the pool runs dry (counted on the client, not the server).
 */
export class SealedTurns {
  private pool: string[] = [];
  constructor(
    private readonly key: CryptoKey,
    private readonly userId: string,
  ) {}
  private async one(): Promise<string> {
    const chatId = crypto.randomUUID();
    const messages: PlainMessage[] = [
      { role: "user", content: "How fast can a private chat be?" },
      { role: "assistant", content: ANSWER },
    ];
    return JSON.stringify(await sealTurn({ key: this.key, userId: this.userId, chatId, create: true, firstPosition: 0, messages, title: "How fast can a private chat be?" }));
  }
  async fill(n: number) {
    while (this.pool.length < n) this.pool.push(...(await Promise.all(Array.from({ length: Math.min(200, n - this.pool.length) }, () => this.one()))));
  }
  async take(): Promise<string> {
    return this.pool.pop() ?? (await this.one());
  }
}

const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
export const FLOOR_DIR = path.join(ROOT, "bench/floor-app");

/** Node flags of an instance: `--cpu-prof` into PERF_CPU_PROF/<name> when set. */
export function profileDir(name: string): string | null {
  return process.env.PERF_CPU_PROF ? path.resolve(process.env.PERF_CPU_PROF, name) : null;
}

/**
 * The command of package.json's "start" script as [env, command, args]: leading `NAME=value` words become
 * environment, `node` becomes this Node binary, any other command its node_modules/.bin file. Words are
 * split on spaces (the script carries no quoting).
 */
export function startCommand(): { env: Record<string, string>; cmd: string; args: string[]; node: boolean } {
  const script: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) {
    const w = words.shift()!;
    env[w.slice(0, w.indexOf("="))] = w.slice(w.indexOf("=") + 1);
  }
  const first = words.shift()!;
  if (first === "node") return { env, cmd: process.execPath, args: words, node: true };
  const bin = path.join(ROOT, "node_modules/.bin", first);
  return { env, cmd: fs.existsSync(bin) ? bin : first, args: words, node: false };
}

/**
 * Start an instance of this app's production build on `port` with `npm start`'s command (startCommand):
 * PORT and HOSTNAME in the environment, and `-p port -H 127.0.0.1` appended when that command is
 * `next start`. With PERF_CPU_PROF, `--cpu-prof` goes on the node command line (or in NODE_OPTIONS when
 * the script does not start with `node`). Returns the pid of the started process.
 */
export function startApp(name: string, port: number, env: Record<string, string>): number {
  const s = startCommand();
  const prof = profileDir(name);
  const profFlags = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [];
  const args = [...s.args];
  const nextAt = args.findIndex((a, i) => /(^|\/)next$/.test(a) && args[i + 1] === "start");
  if (nextAt >= 0) args.push("-p", String(port), "-H", "127.0.0.1");
  const extra: Record<string, string> = { ...s.env, ...env, PORT: String(port), HOSTNAME: "127.0.0.1" };
  if (prof && !s.node) extra.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} ${profFlags.join(" ")}`.trim();
  const child = start(name, s.cmd, s.node ? [...profFlags, ...args] : args, extra);
  return child.pid!;
}

/** Start bench/floor-app (Next's floor: not the product, so always `next start`). */
export function startFloorApp(port: number, env: Record<string, string>): number {
  const prof = profileDir("floor-app");
  const node = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [];
  return start("floor-app", process.execPath, [...node, NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], env, FLOOR_DIR).pid!;
}

/**
 * `next build` of bench/floor-app (with the repository's own next) unless its build is newer than
 * every source file of it. About 30-60 s on 2 cores; the build stays in bench/floor-app/.next (ignored).
 */
export function buildFloorApp() {
  const sources = ["next.config.mjs", "instrumentation.js", "app/layout.js", "app/page.js", "app/stream/route.js"];
  const built = path.join(FLOOR_DIR, ".next/BUILD_ID");
  const newest = Math.max(...sources.map((f) => fs.statSync(path.join(FLOOR_DIR, f)).mtimeMs), fs.statSync(NEXT_BIN).mtimeMs);
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs > newest) return;
  console.error("building bench/floor-app (Next's floor)…");
  const r = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: FLOOR_DIR,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error(`next build of bench/floor-app failed (exit ${r.status})`);
}
