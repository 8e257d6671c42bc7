/**
 * The embedded database's fault tests (npm run test:faults, docs/deploy.md "Embedded database"): the production
 * build's server (`node server.mjs`, as `npm start` runs it) on a PGlite DATA_DIR, users signed in by the real
 * e-mail link and vaults set up through the real endpoints, sealed turns saved by several clients at once, and a
 * ledger of every save the server acknowledged, read back byte for byte after each fault.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { HttpsClient } from "../../scripts/deploy/https-client";
import { signIn } from "../../scripts/deploy/sign-in";
import { ROOT, waitFor200 } from "../../scripts/deploy/stack";
import { saveTurn, setUpVault, unlockVault, type Vault } from "../../scripts/deploy/vault";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

export const PASSPHRASE = "a long fault test passphrase";

/** A server process on one port and DATA_DIR; `output` is its stdout and stderr. */
export interface App {
  port: number;
  origin: string;
  dataDir: string;
  proc: ChildProcess;
  output: string[];
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The fake model and mail server every app of a run shares. */
export interface Peers {
  llm: FakeLlmServer;
  smtp: TestSmtpServer;
  close(): Promise<void>;
}

export async function startPeers(): Promise<Peers> {
  const llm = await startFakeLlmServer();
  const smtp = await startSmtpServer();
  return { llm, smtp, close: async () => void (await Promise.all([llm.close(), smtp.close()])) };
}

/** True when the production build `npm run build` makes is there. */
export const hasBuild = () => fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"));

/**
 * Spawn `node server.mjs` on `dataDir` and `port` with npm start's settings (not waiting for it).
 * `env` adds or overrides variables; `wrap` runs it under another program (e.g. strace's command line).
 */
export function spawnApp(peers: Peers, dataDir: string, port: number, env: Record<string, string> = {}, wrap: string[] = []): App {
  const origin = `http://127.0.0.1:${port}`;
  const command = [...wrap, process.execPath, "--max-semi-space-size=4", "--require", "./deploy/http-timeouts.cjs", "server.mjs", "-p", String(port), "-H", "127.0.0.1"];
  const proc = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      NEXT_TELEMETRY_DISABLED: "1",
      APP_URL: origin,
      DATA_DIR: dataDir,
      NEXTAUTH_SECRET: "fault-test-nextauth-secret-0123456789abcdef",
      LLM_BASE_URL: `${peers.llm.url}/v1`,
      LLM_API_KEY: "test",
      EMAIL_SERVER: peers.smtp.url,
      EMAIL_FROM: "Hush <no-reply@hush.test>",
      EMAIL_SIGNIN_LIMIT_PER_HOUR: "1000",
      EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE: "1000",
      EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR: "1000",
      SHUTDOWN_GRACE_SECONDS: "10",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  proc.stdout!.setEncoding("utf8").on("data", (d: string) => output.push(d));
  proc.stderr!.setEncoding("utf8").on("data", (d: string) => output.push(d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));
  return { port, origin, dataDir, proc, output, exited };
}

/** Spawn an app and wait for GET /api/ready to answer 200. @throws Error with its output if it exits first. */
export async function startApp(peers: Peers, dataDir: string, port: number, env: Record<string, string> = {}, wrap: string[] = []): Promise<App> {
  const app = spawnApp(peers, dataDir, port, env, wrap);
  try {
    await waitFor200(`${app.origin}/api/ready`, 120_000, { proc: app.proc, output: app.output } as Parameters<typeof waitFor200>[2]);
  } catch (error) {
    app.proc.kill("SIGKILL");
    throw error;
  }
  return app;
}

/** Stop an app with `signal` and wait for it to exit. */
export async function stopApp(app: App, signal: NodeJS.Signals = "SIGTERM") {
  if (app.proc.exitCode === null && app.proc.signalCode === null) app.proc.kill(signal);
  return app.exited;
}

/**
 * Run a set-up step or a read again when the connection was reset before any answer: a kept-alive socket the
 * server closed as idle (its 5 s keep-alive timeout) just as the client reused it. Never used for the saves
 * that are measured.
 */
async function againOnReset<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 3 || (code !== "ECONNRESET" && !/socket hang up/.test((error as Error).message))) throw error;
    }
  }
}

/** One signed-in user with an unlocked vault, on a client of its own. */
export interface User {
  email: string;
  client: HttpsClient;
  vault: Vault;
}

/** Sign `count` users in on `app` and set up their vaults (a passphrase, so a restored copy can be unlocked). */
export async function signUpUsers(peers: Peers, app: App, count: number, prefix: string): Promise<User[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const email = `${prefix}-${i}@example.test`;
      const client = new HttpsClient(app.origin, { maxSockets: 1 });
      await againOnReset(() => signIn({ origin: app.origin, smtp: peers.smtp }, client, email));
      return { email, client, vault: await setUpVault(client, PASSPHRASE) };
    }),
  );
}

/** Sign `user` in again on `app` (another browser) and unlock the vault with the passphrase. */
export async function signInAgain(peers: Peers, app: App, user: User): Promise<User> {
  const client = new HttpsClient(app.origin, { maxSockets: 1 });
  await againOnReset(() => signIn({ origin: app.origin, smtp: peers.smtp }, client, user.email));
  return { email: user.email, client, vault: await againOnReset(() => unlockVault(client, PASSPHRASE)) };
}

/** Point every user's client at another app (same users, same session cookies). */
export function moveUsers(users: User[], app: App): User[] {
  return users.map((u) => {
    const client = new HttpsClient(app.origin, { maxSockets: 1 });
    for (const [k, v] of u.client.jar) client.jar.set(k, v);
    u.client.close();
    return { ...u, client };
  });
}

/** A save the server answered 200: the chat, its owner and the ciphertexts it was sent. */
interface Acknowledged {
  user: number;
  chatId: string;
  ciphertexts: string[];
  /** Milliseconds epoch of the 200. */
  at: number;
}

/** What happened to every save of a run. */
export class Ledger {
  readonly acknowledged: Acknowledged[] = [];
  /**
   * Answers other than 200, by status; "refused" for a connection refused (nothing listening: no request
   * was sent), "no answer" for a request sent and cut without an answer (a reset).
   */
  readonly refused = new Map<string, number>();
  /** Bodies of the non-200 answers, a few of each status, for the test's message. */
  readonly samples = new Map<string, string>();
  attempts = 0;

  record(status: number | "refused" | "no answer", body: string): void {
    const key = String(status);
    this.refused.set(key, (this.refused.get(key) ?? 0) + 1);
    if (!this.samples.has(key)) this.samples.set(key, body.slice(0, 300));
  }

  /** Acknowledged saves made before `at` (ms epoch). */
  before(at: number): Acknowledged[] {
    return this.acknowledged.filter((a) => a.at < at);
  }
}

/**
 * Keep every user saving new two-message chats, one at a time each, until `stop()`; every 200 goes in the
 * ledger. A connection refused counts as "refused", a request cut without an answer as "no answer".
 */
export function saveLoop(users: User[], ledger: Ledger): { stop(): Promise<void> } {
  let running = true;
  const loops = users.map(async (user, index) => {
    let n = 0;
    while (running) {
      n++;
      const turn = [
        { role: "user" as const, content: `Fault test question ${index}.${n}: what does a lighthouse keeper do at dawn?` },
        { role: "assistant" as const, content: `Answer ${index}.${n}: the keeper trims the wick, logs the weather and rests. `.repeat(8) },
      ];
      ledger.attempts++;
      try {
        const saved = await saveTurn(user.client, user.vault, null, 0, turn);
        if (saved.status === 200) {
          ledger.acknowledged.push({ user: index, chatId: saved.chatId, ciphertexts: saved.sent.messages.map((m) => m.content_ciphertext), at: Date.now() });
        } else {
          ledger.record(saved.status, saved.body);
          await new Promise((r) => setTimeout(r, 100));
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        ledger.record(code === "ECONNREFUSED" ? "refused" : "no answer", `${code ?? ""} ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Of `saves`, how many read back byte for byte (`found`), are missing or differ (`lost`), or hold extra messages (`duplicated`). */
export async function verify(users: User[], saves: Acknowledged[]) {
  let found = 0;
  const lost: string[] = [];
  let duplicated = 0;
  for (let i = 0; i < saves.length; i += 16) {
    await Promise.all(
      saves.slice(i, i + 16).map(async (save) => {
        const res = await againOnReset(() =>
          users[save.user]!.client.json<{ messages: { content_ciphertext: string }[] }>("GET", `/api/ns/chat_history/${save.chatId}`),
        );
        const stored = res.status === 200 ? (res.data?.messages.map((m) => m.content_ciphertext) ?? []) : [];
        if (stored.length > save.ciphertexts.length) duplicated++;
        if (stored.length >= save.ciphertexts.length && save.ciphertexts.every((c, j) => stored[j] === c)) found++;
        else lost.push(`${save.chatId}: ${res.status}`);
      }),
    );
  }
  return { acknowledged: saves.length, found, lost: lost.length, duplicated, lostSample: lost.slice(0, 5) };
}

/** Run `command` (npm's script line, e.g. ["scripts/plan.ts", "grant", "x"]) with tsx as npm run does. */
export function runScript(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string; ms: number }>((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "development", ...env },
      timeout: 120_000,
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.once("close", (code) => resolve({ code, output, ms: Date.now() - started }));
  });
}

/** One row of docs/database.md's reliability table, printed at the end of the run. */
export interface Row {
  fault: string;
  acknowledged: number;
  lost: number;
  duplicated: number;
  note: string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
