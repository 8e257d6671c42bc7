/**
 * The multi-instance test (issue 11), run by scripts/test.sh after the production build:
 * PostgreSQL (a fresh database), Redis, two production app instances of the same build and nginx with
 * deploy/nginx.conf and a self-signed certificate, all real processes, driven over https through nginx.
 *
 *   npx tsx scripts/deploy-test.ts            (needs `npx next build`, nginx, redis-server, openssl, curl,
 *                                              and TEST_POSTGRES_URL or PostgreSQL on 127.0.0.1:5432)
 *
 * Sign-in is the real e-mail-link flow (next-auth through nginx, the link read from the test SMTP server).
 * Exits non-zero on the first failed check.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { listMigrations } from "../lib/db/migrate";
import { HttpsClient } from "./deploy/https-client";
import { signIn } from "./deploy/sign-in";
import { startStack, type Stack } from "./deploy/stack";

const FREE_LIMIT = 4;
const VISITOR_LIMIT = 2;
const GRACE_SECONDS = 20;
const BASIC = "llama3-8b-8192";

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: "user", content }],
  model: BASIC,
  file: null,
  chat_id: null,
  save_chat: false,
  ...extra,
});

let passed = 0;
async function check(name: string, fn: () => Promise<void>): Promise<void> {
  const started = Date.now();
  await fn();
  passed++;
  console.log(`  ✓ ${name} (${Date.now() - started} ms)`);
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const stack = await startStack({
    appEnv: {
      QUOTA_FREE_PER_DAY: String(FREE_LIMIT),
      QUOTA_VISITOR_PER_DAY: String(VISITOR_LIMIT),
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    },
  });
  const [A, B] = stack.apps as [NonNullable<Stack["apps"][0]>, NonNullable<Stack["apps"][1]>];
  const other = (addr: string) => (addr === A.addr ? B.addr : A.addr);
  const clients: HttpsClient[] = [];
  const client = (localAddress?: string) => {
    const c = new HttpsClient(stack.origin, { ca: stack.ca, localAddress });
    clients.push(c);
    return c;
  };
  try {
    console.log(`multi-instance test (stack started in ${Date.now() - t0} ms)`);

    await check("two instances starting together on an empty database applied each migration once", async () => {
      const local = listMigrations().map((m) => m.name);
      const rows = await stack.sql<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" ORDER BY 1`);
      assert.deepEqual(rows.map((r) => r.migration_name), local);
      const appliers = stack.apps.filter((a) => a.output.join("").includes("[db] applied migrations"));
      assert.equal(appliers.length, 1, "exactly one instance applied the migrations");
    });

    await check("health and readiness through nginx: 200, no-store, one HSTS header", async () => {
      const c = client();
      for (const path of ["/api/health", "/api/ready"]) {
        const res = await c.json("GET", path);
        assert.equal(res.status, 200, `${path}: ${res.body}`);
        assert.equal(res.headers["cache-control"], "no-store");
        assert.equal(res.headers["strict-transport-security"], "max-age=63072000; includeSubDomains");
      }
      const ready = await c.json<{ checks: Record<string, string> }>("GET", "/api/ready");
      assert.deepEqual(ready.data!.checks, { database: "ok", migrations: "ok", redis: "ok", shutdown: "no" });
    });

    await check("plain http redirects to https; HTTP/2 is offered", async () => {
      const redirect = execFileSync("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", `http://127.0.0.1:${stack.httpPort}/chat`]).toString();
      assert.match(redirect, /^301 https:\/\/127\.0\.0\.1\/chat$/);
      const version = execFileSync("curl", ["-s", "--http2", "--cacert", stack.caPath, "-o", "/dev/null", "-w", "%{http_version}", `${stack.origin}/api/health`]).toString();
      assert.equal(version, "2");
    });

    const user = client();
    let signedInOn = "";
    await check("sign-in through nginx (e-mail link) sets Secure cookies, the session one __Secure- prefixed", async () => {
      const probe = client();
      const res = await probe.request("GET", "/api/auth/csrf");
      const cookies = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
      assert.ok(cookies.length > 0);
      for (const line of cookies) assert.match(line, /; Secure/i, line.split("=")[0]);
      signedInOn = await signIn(stack, user, "multi@example.test");
      assert.ok([A.addr, B.addr].includes(signedInOn), `session created on ${signedInOn}`);
    });

    await check("the session created on one instance works on the other (shared in PostgreSQL)", async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const me = await user.json<{ user: { email: string } | null }>("GET", "/api/me");
        assert.equal(me.status, 200);
        assert.deepEqual(me.data, { user: { email: "multi@example.test" } }, `on ${me.upstream}`);
        seen.add(me.upstream);
      }
      assert.ok(seen.has(other(signedInOn)), `served by ${[...seen].join(", ")}; signed in on ${signedInOn}`);
    });

    let chatId = "";
    await check("saved history written through one instance is read through the other", async () => {
      const sent = await user.chat("/api/ns/chat_user", ask("Remember the lighthouse", { save_chat: true }));
      assert.equal(sent.status, 200, sent.body);
      const done = sent.events.at(-1)!;
      assert.equal(done.event, "done", sent.body);
      chatId = (done.data as { chat_id: string }).chat_id;
      assert.match(chatId, /^[0-9a-f-]{36}$/);
      for (let i = 0; i < 4; i++) {
        const read = await user.json<{ messages: { role: string; content: string }[] }>("GET", `/api/ns/chat_history/${chatId}`);
        if (read.upstream !== sent.upstream) {
          assert.equal(read.status, 200, read.body);
          assert.deepEqual(
            read.data!.messages.map((m) => m.role),
            ["user", "assistant"],
          );
          assert.equal(read.data!.messages[0]!.content, "Remember the lighthouse");
          const stored = await stack.sql<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE chat_id = $1`, [chatId]);
          assert.deepEqual(stored, [{ n: 2 }]);
          return;
        }
      }
      assert.fail("never reached the other instance");
    });

    await check(`the daily quota (${FREE_LIMIT}) holds across both instances (Redis)`, async () => {
      const served = new Set<string>();
      for (let i = 1; i < FREE_LIMIT; i++) {
        const r = await user.chat("/api/ns/chat_user", ask(`Message ${i}`));
        assert.equal(r.status, 200, r.body);
        served.add(r.upstream);
      }
      assert.equal(served.size, 2, "the allowed sends went to both instances");
      const refusedOn = new Set<string>();
      for (let i = 0; i < 2; i++) {
        const r = await user.json<{ error: string }>("POST", "/api/ns/chat_user", { json: ask("One more") });
        assert.equal(r.status, 429, r.body);
        refusedOn.add(r.upstream);
      }
      assert.equal(refusedOn.size, 2, "both instances refuse");
    });

    await check("the visitor quota counts the address nginx saw, not one the client wrote", async () => {
      const v2 = client("127.0.0.2");
      for (let i = 0; i < VISITOR_LIMIT; i++) {
        const r = await v2.chat("/api/ns/chat", ask("hi"), undefined);
        assert.equal(r.status, 200, r.body);
      }
      // A forged X-Forwarded-For does not buy a fresh quota: nginx appends the real peer after it.
      const forged = await v2.json("POST", "/api/ns/chat", { json: ask("hi"), headers: { "x-forwarded-for": "203.0.113.9" } });
      assert.equal(forged.status, 429, forged.body);
      const v3 = client("127.0.0.3");
      const fresh = await v3.chat("/api/ns/chat", ask("hi"));
      assert.equal(fresh.status, 200, "another address still has its own quota");
    });

    await check("SIGTERM: the stream in flight finishes and is saved, the other instance serves, exit 0", async () => {
      const second = client();
      await signIn(stack, second, "drain@example.test");
      const streamDone = second.chat("/api/ns/chat_user", ask("Tell me slowly [[fake:slow]]", { save_chat: true }));
      // Wait until the fake LLM is streaming to one instance, then stop that instance.
      const deadline = Date.now() + 10_000;
      while (!stack.llm.requests.some((r) => r.scenario === "slow")) {
        assert.ok(Date.now() < deadline, "the slow stream never started");
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 600));
      const streaming = await whichInstanceStreams(stack);
      streaming.proc.kill("SIGTERM");
      const started = Date.now();
      // While it drains, requests through nginx keep working (the other instance).
      for (let i = 0; i < 4; i++) {
        const me = await second.json("GET", "/api/me");
        assert.equal(me.status, 200, me.body);
      }
      const result = await streamDone;
      assert.equal(result.status, 200);
      const last = result.events.at(-1)!;
      assert.equal(last.event, "done", result.body.slice(-300));
      assert.equal(result.events.filter((e) => e.event === "delta").length, 20);
      const code = await streaming.exited;
      assert.equal(code, 0, streaming.output.join("").slice(-2000));
      assert.match(streaming.output.join(""), /SIGTERM: draining 1 chat turn\(s\)/, "the signal came mid-stream");
      assert.ok(Date.now() - started < GRACE_SECONDS * 1000 + 5000);
      const savedId = (last.data as { chat_id: string }).chat_id;
      const stored = await stack.sql<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE chat_id = $1`, [savedId]);
      assert.deepEqual(stored, [{ n: 2 }]);
      const after = await second.json("GET", "/api/me");
      assert.equal(after.status, 200, "nginx routes around the stopped instance");
    });

    console.log(`multi-instance test: ${passed} checks passed in ${Math.round((Date.now() - t0) / 1000)} s`);
  } finally {
    for (const c of clients) c.close();
    await stack.close();
  }
}

/** The instance with a chat turn in flight: the one holding a connection to the fake LLM (ss -p). */
async function whichInstanceStreams(stack: Stack) {
  const out = execFileSync("ss", ["-tnpH", "state", "established", `( dport = :${stack.llm.port} )`]).toString();
  for (const app of stack.apps) if (out.includes(`pid=${app.proc.pid},`)) return app;
  throw new Error(`no instance is connected to the fake LLM:\n${out}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error("multi-instance test FAILED:", error);
    process.exit(1);
  },
);
