/** The production layout on one machine (PostgreSQL, Redis, two instances, nginx over TLS) for scripts/deploy-test.ts. */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startFakeLlmServer, type FakeLlmServer } from "../../tests/helpers/fake-llm-server";
import { startSmtpServer, type TestSmtpServer } from "../../tests/helpers/smtp";
import { startTcpProxy, type TcpProxy } from "../../tests/helpers/tcp-proxy";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export const STRIPE_WEBHOOK_SECRET = "whsec_deploy_test_0123456789abcdef";

export interface StackOptions {
  appEnv?: Record<string, string>;
  llmDelayMs?: number;
  llmFirstTokenMs?: number;
  log?: (line: string) => void;
  /** Without the outage pass-through. */
  directDatabase?: boolean;
  inspectPorts?: [number, number];
}

export interface AppInstance {
  name: "A" | "B";
  port: number;
  addr: string;
  proc: ChildProcess;
  output: string[];
  inspectPort?: number;
  exited: Promise<number | null>;
}

export interface Stack {
  origin: string;
  httpPort: number;
  ca: Buffer;
  caPath: string;
  databaseUrl: string;
  llm: FakeLlmServer;
  smtp: TestSmtpServer;
  apps: AppInstance[];
  /** stop() is a database outage. */
  pgProxy: TcpProxy;
  startApp(index: number): Promise<AppInstance>;
  stopRedis(): Promise<void>;
  startRedis(): Promise<void>;
  sql<R extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor200(url: string, timeoutMs: number, proc?: AppInstance): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (proc && proc.proc.exitCode !== null) throw new Error(`${url}: process exited ${proc.proc.exitCode}\n${proc.output.join("")}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(300);
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms: ${last}${proc ? `\n${proc.output.join("")}` : ""}`);
}

/** Only the lines marked "# test:" and the process paths change. */
export function renderNginxConf(
  source: string,
  v: { httpPort: number; httpsPort: number; upstreams: string[]; cert: string; key: string; prefix: string },
): string {
  const replacements: [RegExp, string][] = [
    [/^pid .*;$/m, `${process.getuid?.() === 0 ? "user root;\n" : ""}pid ${v.prefix}/nginx.pid;`],
    [/^error_log .*;$/m, `error_log ${v.prefix}/error.log warn;`],
    [/^( *)server \S+ (.*)# test: upstream A$/m, `$1server ${v.upstreams[0]} $2`],
    [/^( *)server \S+ (.*)# test: upstream B$/m, `$1server ${v.upstreams[1]} $2`],
    [/^( *)listen 80;.*# test: http port$/m, `$1listen 127.0.0.1:${v.httpPort};`],
    [/^( *)listen 443 ssl http2;.*# test: https port$/m, `$1listen 127.0.0.1:${v.httpsPort} ssl http2;`],
    [/^( *)ssl_certificate .*# test: certificate$/m, `$1ssl_certificate ${v.cert};`],
    [/^( *)ssl_certificate_key .*# test: key$/m, `$1ssl_certificate_key ${v.key};`],
    [/^( *)add_header Strict-Transport-Security (.*)$/m, `$&\n$1add_header X-Hush-Upstream $upstream_addr always;`],
    [
      /^http \{$/m,
      `http {\n    client_body_temp_path ${v.prefix}/body;\n    proxy_temp_path ${v.prefix}/proxy;\n` +
        `    fastcgi_temp_path ${v.prefix}/fastcgi;\n    uwsgi_temp_path ${v.prefix}/uwsgi;\n    scgi_temp_path ${v.prefix}/scgi;`,
    ],
  ];
  let out = source;
  for (const [pattern, replacement] of replacements) {
    if (!pattern.test(out)) throw new Error(`deploy/nginx.conf: no line matches ${pattern}`);
    out = out.replace(pattern, replacement);
  }
  return out;
}

/** deploy/Dockerfile's runtime stage as a folder. */
function assembleDockerRuntime(work: string): string {
  const dockerfile = fs.readFileSync(path.join(ROOT, "deploy/Dockerfile"), "utf8");
  const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf("FROM "));
  const copies = [...runtimeStage.matchAll(/^COPY --from=build \S+ \/app\/(\S+) (\S+)$/gm)].map((m) => ({ from: m[1]!, to: m[2]! }));
  if (!copies.length) throw new Error("deploy/Dockerfile: no COPY --from=build lines in the runtime stage");
  const runtime = path.join(work, "runtime");
  for (const { from, to } of copies) {
    const source = path.join(ROOT, from);
    if (!fs.existsSync(source)) throw new Error(`${from} is missing: run \`npx next build\` first (standalone output)`);
    fs.cpSync(source, path.resolve(runtime, to), { recursive: true, verbatimSymlinks: true });
  }
  return runtime;
}

function spawnLogged(cmd: string, args: string[], env: NodeJS.ProcessEnv, output: string[], cwd = ROOT): ChildProcess {
  const proc = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  proc.stdout!.setEncoding("utf8").on("data", (d: string) => output.push(d));
  proc.stderr!.setEncoding("utf8").on("data", (d: string) => output.push(d));
  return proc;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const log = options.log ?? ((line: string) => console.log(line));
  const base = Number(process.env.DEPLOY_PORT_BASE ?? 5550);
  const ports = { llm: base + 1, smtp: base + 2, appA: base + 4, appB: base + 5, https: base + 6, http: base + 7, redis: base + 8, pg: base + 9 };
  const adminUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "hush-deploy-"));
  const cleanups: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch((e) => log(`cleanup: ${(e as Error).message}`));
    fs.rmSync(work, { recursive: true, force: true });
  };

  try {
    const dbName = `hush_t_deploy_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    });
    const dbUrl = new URL(adminUrl);
    dbUrl.pathname = `/${dbName}`;
    const databaseUrl = dbUrl.toString();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // An idle connection ended by DROP DATABASE ... FORCE must not crash the run.
    pool.on("error", (e) => log(`test pool: ${e.message}`));
    cleanups.push(() => pool.end());
    const pgProxy = await startTcpProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) }, ports.pg);
    cleanups.push(() => pgProxy.close());
    const appDbUrl = new URL(databaseUrl);
    appDbUrl.hostname = "127.0.0.1";
    appDbUrl.port = String(ports.pg);

    let redis: ChildProcess | null = null;
    const redisOut: string[] = [];
    const startRedis = async () => {
      redis = spawnLogged("redis-server", ["--bind", "127.0.0.1", "--port", String(ports.redis), "--save", "", "--appendonly", "no"], process.env, redisOut);
      for (let i = 0; i < 50; i++) {
        try {
          execFileSync("redis-cli", ["-p", String(ports.redis), "ping"], { stdio: "pipe" });
          return;
        } catch {
          await sleep(100);
        }
      }
      throw new Error(`redis-server did not start: ${redisOut.join("")}`);
    };
    const stopRedis = async () => {
      const r = redis as ChildProcess | null;
      if (!r || r.exitCode !== null) return;
      const gone = new Promise((res) => r.once("exit", res));
      r.kill("SIGKILL");
      await gone;
    };
    await startRedis();
    cleanups.push(stopRedis);

    const llm = await startFakeLlmServer({ port: ports.llm, delayMs: options.llmDelayMs, firstTokenMs: options.llmFirstTokenMs });
    cleanups.push(() => llm.close());
    const smtp = await startSmtpServer({ port: ports.smtp });
    cleanups.push(() => smtp.close());

    const cert = path.join(work, "cert.pem");
    const key = path.join(work, "key.pem");
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
    ], { stdio: "pipe" });
    const ca = fs.readFileSync(cert);
    const origin = `https://127.0.0.1:${ports.https}`;

    const appEnv = (port: number): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      APP_URL: origin,
      DATA_DIR: path.join(work, `data-${port}`),
      DATABASE_URL: options.directDatabase ? databaseUrl : appDbUrl.toString(),
      REDIS_URL: `redis://127.0.0.1:${ports.redis}/0`,
      NEXTAUTH_SECRET: "deploy-test-nextauth-secret-0123456789abcdef",
      LLM_BASE_URL: `${llm.url}/v1`,
      LLM_API_KEY: "test",
      LLM_TIMEOUT_MS: "5000",
      EMAIL_SERVER: `smtp://127.0.0.1:${ports.smtp}`,
      EMAIL_FROM: "Hush <no-reply@hush.test>",
      STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
      TRUSTED_PROXIES: "127.0.0.1",
      CLIENT_IP_HEADER: "x-forwarded-for",
      ...options.appEnv,
    });
    const apps: AppInstance[] = [];
    // B runs the Docker image's runtime layout, so every check also holds for the image.
    const runtimeDir = assembleDockerRuntime(work);
    const startApp = async (index: number): Promise<AppInstance> => {
      const port = index === 0 ? ports.appA : ports.appB;
      const output: string[] = [];
      const inspectPort = options.inspectPorts?.[index];
      const nodeArgs = ["--max-semi-space-size=4", ...(inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [])];
      const proc =
        index === 0
          ? spawnLogged(process.execPath, [...nodeArgs, "--require", path.join(ROOT, "deploy/http-timeouts.cjs"), "server.mjs", "-p", String(port), "-H", "127.0.0.1"], { ...appEnv(port), MALLOC_ARENA_MAX: "2" }, output)
          :
            spawnLogged(process.execPath, [...nodeArgs, "--require", "./http-timeouts.cjs", "server.mjs"], { ...appEnv(port), MALLOC_ARENA_MAX: "2", PORT: String(port), HOSTNAME: "127.0.0.1" }, output, runtimeDir);
      const exited = new Promise<number | null>((res) => proc.once("exit", (code) => res(code)));
      const app: AppInstance = { name: index === 0 ? "A" : "B", port, addr: `127.0.0.1:${port}`, proc, output, exited, inspectPort };
      apps[index] = app;
      await waitFor200(`http://127.0.0.1:${port}/api/ready`, 120_000, app);
      return app;
    };
    cleanups.push(async () => {
      for (const app of apps) {
        if (app && app.proc.exitCode === null && app.proc.signalCode === null) {
          app.proc.kill("SIGKILL");
          await app.exited;
        }
      }
    });
    await Promise.all([startApp(0), startApp(1)]);

    const prefix = path.join(work, "nginx");
    for (const d of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) fs.mkdirSync(path.join(prefix, d), { recursive: true });
    const conf = renderNginxConf(fs.readFileSync(path.join(ROOT, "deploy/nginx.conf"), "utf8"), {
      httpPort: ports.http,
      httpsPort: ports.https,
      upstreams: apps.map((a) => a.addr),
      cert,
      key,
      prefix,
    });
    const confPath = path.join(prefix, "nginx.conf");
    fs.writeFileSync(confPath, conf);
    const nginxBin = fs.existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
    execFileSync(nginxBin, ["-t", "-q", "-p", prefix, "-c", confPath], { stdio: "pipe" });
    const nginxOut: string[] = [];
    const nginx = spawnLogged(nginxBin, ["-p", prefix, "-c", confPath, "-g", "daemon off;"], process.env, nginxOut);
    cleanups.push(async () => {
      if (nginx.exitCode === null) {
        const gone = new Promise((res) => nginx.once("exit", res));
        nginx.kill("SIGQUIT");
        await gone;
      }
    });
    for (let i = 0; ; i++) {
      try {
        execFileSync("curl", ["-sf", "--cacert", cert, "-o", "/dev/null", `${origin}/api/health`], { stdio: "pipe" });
        break;
      } catch {
        if (i > 50) throw new Error(`nginx did not start: ${nginxOut.join("")}`);
        await sleep(100);
      }
    }
    log(`stack up: nginx ${origin} -> app A :${ports.appA}, app B :${ports.appB}; PostgreSQL ${dbName}; Redis :${ports.redis}`);

    return {
      origin,
      httpPort: ports.http,
      ca,
      caPath: cert,
      databaseUrl,
      llm,
      smtp,
      apps,
      pgProxy,
      startApp,
      stopRedis,
      startRedis,
      sql: async (text, params) => (await pool.query(text, params)).rows,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
