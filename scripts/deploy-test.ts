/**
 * The multi-instance test (docs/issues.md #11), run by scripts/test.sh after the production build:
 * PostgreSQL (a fresh database), Redis, two production app instances of the same build and nginx with
 * deploy/nginx.conf and a self-signed certificate, all real processes, driven over https through nginx.
 *
 *   npx tsx --conditions=react-server scripts/deploy-test.ts
 *
 * Needs `npx next build`, nginx, redis-server, openssl, curl, and TEST_POSTGRES_URL or PostgreSQL on
 * 127.0.0.1:5432. The condition makes "server-only" (reached through lib/server/db/migrate.ts -> lib/server/log.ts)
 * an empty module, as the package.json scripts do.
 *
 * Sign-in is the real e-mail-link flow (next-auth through nginx, the link read from the test SMTP server).
 * Exits non-zero on the first failed check.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { listMigrations } from "../lib/server/db/migrate";
import { HttpsClient } from "./deploy/https-client";
import { signIn } from "./deploy/sign-in";
import { STRIPE_WEBHOOK_SECRET, startStack, type Stack } from "./deploy/stack";
import { makeEvent, signEvent } from "../tests/helpers/fake-stripe-server";
import { readChat, saveTurn, setUpVault, unlockVault } from "./deploy/vault";
import type { PlainMessage } from "../lib/browser/vault/seal";

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
      const appliers = stack.apps.filter((a) => /"msg":"applied migrations"/.test(a.output.join("")));
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
        const me = await user.json<{ user: { email: string } | null; auth_sync: boolean }>("GET", "/api/me");
        assert.equal(me.status, 200);
        assert.deepEqual(me.data, { user: { email: "multi@example.test" }, auth_sync: false }, `on ${me.upstream}`);
        seen.add(me.upstream);
      }
      assert.ok(seen.has(other(signedInOn)), `served by ${[...seen].join(", ")}; signed in on ${signedInOn}`);
    });

    await check("saved history sealed and stored through one instance is read and opened through the other", async () => {
      // The browser's side (docs/issues.md #8): the vault is made here, only wrapped keys reach the server.
      const vault = await setUpVault(user, "lighthouse passphrase");
      const question = "Remember the lighthouse";
      const sent = await user.chat("/api/ns/chat_user", ask(question));
      assert.equal(sent.status, 200, sent.body);
      const done = sent.events.at(-1)!;
      assert.equal(done.event, "done", sent.body);
      const answer = (done.data as { chat_id: string | null; messages: { role: string; content: string }[] });
      assert.equal(answer.chat_id, null, "chat_user stores nothing: no chat id of its own");
      const turn: PlainMessage[] = [{ role: "user", content: question }, { role: "assistant", content: answer.messages.at(-1)!.content }];
      // Store it through one instance (instance "A": whichever nginx picks), read it through the other.
      const saved = await saveTurn(user, vault, null, 0, turn);
      assert.equal(saved.status, 200, saved.body);
      const chatId = saved.chatId;
      const stored = await stack.sql<{ n: number; plain: boolean }>(
        `SELECT count(*)::int AS n, bool_or(encode(content_ciphertext, 'escape') LIKE '%lighthouse%') AS plain FROM messages WHERE chat_id = $1`,
        [chatId],
      );
      assert.deepEqual(stored, [{ n: 2, plain: false }], "two rows, ciphertext only");
      // A second session of the same user (another browser) unlocks with the passphrase and opens it.
      const elsewhere = client();
      await signIn(stack, elsewhere, "multi@example.test");
      const unlocked = await unlockVault(elsewhere, "lighthouse passphrase");
      for (let i = 0; i < 6; i++) {
        const read = await readChat(elsewhere, unlocked, chatId);
        if (read.upstream !== saved.upstream) {
          assert.equal(read.status, 200, read.body);
          assert.ok(!read.body.includes("lighthouse"), "the history endpoint returns ciphertext");
          assert.deepEqual(read.chat!.messages.map((m) => m.role), ["user", "assistant"]);
          assert.equal(read.chat!.messages[0]!.content, question);
          assert.equal(read.chat!.messages[1]!.content, turn[1]!.content);
          assert.equal(read.chat!.title, question);
          return;
        }
      }
      assert.fail(`never reached the other instance (stored on ${saved.upstream})`);
    });

    await check("body limits: a 3 MB sealed turn reaches the app through nginx; 2 MB to a small route stops at nginx", async () => {
      // Not a valid turn: the app's own JSON 400 proves nginx let the body through (its limit is 50m here).
      const big = await user.json<{ error: string }>("POST", "/api/ns/chat_save", { json: { padding: "x".repeat(3 * 1024 * 1024) } });
      assert.equal(big.status, 400, big.body.slice(0, 200));
      assert.equal(typeof big.data?.error, "string");
      const small = await user.request("PATCH", "/api/vault", { json: { padding: "x".repeat(2 * 1024 * 1024) } });
      assert.equal(small.status, 413, "nginx's 1m default");
      assert.equal(small.upstream, "", "refused before any instance");
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

    await check("a turn's document (PDF text extracted in the browser) reaches the model on both instances", async () => {
      const document = { name: "e2e-report.pdf", text: "Hush quarterly privacy report.\n\nPage two." };
      const readOn = new Set<string>();
      // A new visitor address each time (each has its own daily quota); nginx spreads them (least_conn).
      for (let i = 1; i <= 8 && readOn.size < 2; i++) {
        stack.llm.requests.length = 0;
        const r = await client(`127.0.4.${i}`).chat("/api/ns/chat", ask("What does the report say?", { document }));
        assert.equal(r.status, 200, r.body);
        assert.equal(r.events.at(-1)?.event, "done", r.body);
        const sent = stack.llm.requests.at(-1)!.messages.map((m) => m.content).join("\n");
        assert.match(sent, /<document name="e2e-report\.pdf"[^>]*>\nHush quarterly privacy report/, `instance ${r.upstream} sent no document text to the model`);
        readOn.add(r.upstream);
      }
      assert.equal(readOn.size, 2, `read on ${[...readOn].join(", ")}`);
    });

    await check("a Stripe event delivered to both instances at once is applied once (the other answers duplicate)", async () => {
      // Stripe retries a delivery it saw time out; behind the load balancer the retry may reach the
      // other instance while the first is still applying it. Idempotency lives in PostgreSQL.
      const userId = "deploy-webhook-user";
      await stack.sql(`INSERT INTO users (id, email) VALUES ($1, 'webhook@example.test')`, [userId]);
      const now = Math.floor(Date.now() / 1000);
      const sub = {
        id: "sub_deploy_test",
        object: "subscription",
        created: now,
        customer: "cus_deploy_test",
        status: "active",
        cancel_at_period_end: false,
        metadata: { user_id: userId, plan_option: "1" },
        items: { object: "list", data: [{ id: "si_deploy_test", object: "subscription_item", current_period_start: now, current_period_end: now + 30 * 86400 }] },
      };
      const { body, signature } = signEvent(makeEvent("customer.subscription.created", sub), STRIPE_WEBHOOK_SECRET);
      const answers = await Promise.all(
        stack.apps.map(async (app) => {
          const res = await fetch(`http://127.0.0.1:${app.port}/api/stripe/webhook`, { method: "POST", headers: { "stripe-signature": signature, "content-type": "application/json" }, body });
          return { status: res.status, outcome: ((await res.json()) as { outcome?: string }).outcome };
        }),
      );
      assert.deepEqual(answers.map((a) => a.status), [200, 200], JSON.stringify(answers));
      assert.deepEqual(answers.map((a) => a.outcome).sort(), ["applied", "duplicate"]);
      const rows = await stack.sql<{ events: number; status: string }>(
        `SELECT (SELECT count(*)::int FROM stripe_events) AS events, (SELECT status FROM subscriptions WHERE user_id = $1) AS status`,
        [userId],
      );
      assert.deepEqual(rows, [{ events: 1, status: "active" }]);
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

    await check("fault: an instance killed mid-stream; the client's stream ends without an answer, the other serves", async () => {
      const v = client("127.0.0.5");
      const upstream = deferred<string>();
      const cut = v.chat("/api/ns/chat", ask("Tell me slowly [[fake:slow]]"), { onHeaders: upstream.resolve }).then(
        (r) => ({ ok: true as const, r }),
        (error: Error) => ({ ok: false as const, error }),
      );
      const victim = instanceAt(stack, await upstream.promise);
      await new Promise((r) => setTimeout(r, 600));
      victim.proc.kill("SIGKILL");
      const outcome = await cut;
      // nginx ends the response early (or the connection breaks): no `done`, so the page shows the
      // docs/product.md §8 message and keeps the typed text (e2e/chat.spec.ts covers the page's side).
      if (outcome.ok) assert.ok(!outcome.r.events.some((e) => e.event === "done"), "no answer from a killed instance");
      for (let i = 0; i < 4; i++) {
        const r = await user.json("GET", "/api/me");
        assert.equal(r.status, 200, `request ${i} after the kill: ${r.status}`);
      }
      const fresh = await client("127.0.0.6").chat("/api/ns/chat", ask("still there?"));
      assert.equal(fresh.events.at(-1)?.event, "done");
      await victim.exited;
      await stack.startApp(stack.apps.indexOf(victim)); // back for the next checks
    });

    await check("fault: PostgreSQL away for 10 s: 503 fast during the outage, recovery without a restart", async () => {
      await stack.pgProxy.stop();
      const outageStart = Date.now();
      try {
        for (let i = 0; i < 3; i++) {
          const t1 = Date.now();
          const r = await user.json<{ error: string }>("GET", "/api/me");
          assert.equal(r.status, 503, r.body);
          assert.equal(r.data!.error, "The service is briefly unavailable. Please try again in a moment.");
          assert.ok(Date.now() - t1 < 3_000, `answered in ${Date.now() - t1} ms`);
        }
        const ready = await user.json<{ checks: { database: string } }>("GET", "/api/ready");
        assert.equal(ready.status, 503);
        assert.equal(ready.data!.checks.database, "failed");
        assert.equal((await user.json("GET", "/api/health")).status, 200, "liveness still answers");
        await new Promise((r) => setTimeout(r, Math.max(0, 10_000 - (Date.now() - outageStart))));
      } finally {
        await stack.pgProxy.start();
      }
      const deadline = Date.now() + 15_000;
      const servedBy = new Set<string>();
      while (servedBy.size < 2) {
        assert.ok(Date.now() < deadline, "did not recover within 15 s");
        const r = await user.json("GET", "/api/me");
        if (r.status === 200) servedBy.add(r.upstream);
        else await new Promise((res) => setTimeout(res, 300));
      }
      for (const app of stack.apps) assert.equal(app.proc.exitCode, null, `instance ${app.name} kept running`);
    });

    await check("fault: Redis stops: quotas count in PostgreSQL (limit still holds), readiness says so, recovery", async () => {
      const third = client();
      await signIn(stack, third, "redis-outage@example.test");
      await stack.stopRedis();
      try {
        const ready = await third.json<{ checks: { redis: string } }>("GET", "/api/ready");
        assert.equal(ready.status, 503);
        assert.equal(ready.data!.checks.redis, "failed");
        const served = new Set<string>();
        for (let i = 0; i < FREE_LIMIT; i++) {
          const r = await third.chat("/api/ns/chat_user", ask(`during the outage ${i}`));
          assert.equal(r.events.at(-1)?.event, "done", r.body);
          served.add(r.upstream);
        }
        const refused = await third.json("POST", "/api/ns/chat_user", { json: ask("over the limit") });
        assert.equal(refused.status, 429, refused.body);
        assert.equal(served.size, 2, "both instances counted in the shared database");
      } finally {
        await stack.startRedis();
      }
      const deadline = Date.now() + 20_000;
      for (;;) {
        const r = await third.json("GET", "/api/ready");
        const again = await third.json("GET", "/api/ready");
        if (r.status === 200 && again.status === 200) break;
        assert.ok(Date.now() < deadline, `not ready again: ${r.body}`);
        await new Promise((res) => setTimeout(res, 300));
      }
      // Users' daily counts live in PostgreSQL whether or not Redis runs (docs/issues.md #24: one round trip
      // before the model), so the count made during the outage still holds once Redis is back.
      const after = await third.json("POST", "/api/ns/chat_user", { json: ask("after the outage") });
      assert.equal(after.status, 429, `the limit still holds after the outage: ${after.body}`);
    });

    await check("fault: the LLM answers 500, times out or cuts the stream: a clear error, nothing saved", async () => {
      const fourth = client();
      await signIn(stack, fourth, "llm-fault@example.test");
      // A user with Save history on (a vault): the browser asks to save (save_chat: true) and would seal
      // the turn for chat_save only after a `done`; none of these give one, and the server stores nothing.
      await setUpVault(fourth, null);
      const r500 = await fourth.json<{ error: string }>("POST", "/api/ns/chat_user", { json: ask("[[fake:500]] hi", { save_chat: true }) });
      assert.equal(r500.status, 502, r500.body);
      assert.equal(r500.data!.error, "The model service is unavailable right now. Please try again later.");
      const cut = await fourth.chat("/api/ns/chat_user", ask("[[fake:cut]] hi", { save_chat: true }));
      assert.deepEqual(cut.events.at(-1), {
        event: "error",
        data: { error: "The answer was cut off before it finished. Please try again.", status: 502 },
      });
      const hang = await fourth.json<{ error: string }>("POST", "/api/ns/chat_user", { json: ask("[[fake:hang]] hi", { save_chat: true }) });
      assert.equal(hang.status, 504, hang.body);
      assert.ok(!cut.events.some((e) => e.event === "done"), "no `done`: the browser has no turn to save");
      const saved = await stack.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM chats c JOIN users u ON u.id = c.user_id WHERE u.email = $1`,
        ["llm-fault@example.test"],
      );
      assert.deepEqual(saved, [{ n: 0 }]);
    });

    await check("SIGTERM during 21 streams: all finish, the turn is then saved (chat_save), the other instance serves, exit 0", async () => {
      const second = client();
      await signIn(stack, second, "drain@example.test");
      const vault = await setUpVault(second, null);
      const before = stack.llm.requests.length;
      const upstream = deferred<string>();
      const streamDone = second.chat("/api/ns/chat_user", ask("Tell me slowly [[fake:slow]]", { save_chat: true }), { onHeaders: upstream.resolve });
      const streaming = instanceAt(stack, await upstream.promise);
      // 20 more streams (visitors, each from its own address) spread over both instances.
      const others = Array.from({ length: 20 }, (_, i) => client(`127.0.2.${i + 1}`).chat("/api/ns/chat", ask("Slowly too [[fake:slow]]")));
      while (stack.llm.requests.length < before + 21) await new Promise((r) => setTimeout(r, 50));
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
      // The browser seals the finished turn and stores it right after the `done` (docs/issues.md #8), while the
      // stopped instance drains: nginx sends it to one that accepts it, and it is stored once.
      const answer = (last.data as { messages: { role: string; content: string }[] }).messages.at(-1)!.content;
      const turn: PlainMessage[] = [{ role: "user", content: "Tell me slowly [[fake:slow]]" }, { role: "assistant", content: answer }];
      const saved = await saveTurn(second, vault, null, 0, turn);
      assert.equal(saved.status, 200, saved.body);
      const rest = await Promise.all(others);
      for (const r of rest) assert.equal(r.events.at(-1)?.event, "done", `every stream finished: ${r.body.slice(-200)}`);
      assert.ok(rest.some((r) => r.upstream === streaming.addr), "some of the 20 ran on the stopped instance");
      const code = await streaming.exited;
      assert.equal(code, 0, streaming.output.join("").slice(-2000));
      assert.match(streaming.output.join(""), /SIGTERM: draining \d+ chat turn\(s\)/, "the signal came mid-stream");
      assert.ok(Date.now() - started < GRACE_SECONDS * 1000 + 5000);
      const opened = await readChat(second, vault, saved.chatId);
      assert.deepEqual(opened.chat!.messages.map((m) => m.content), turn.map((m) => m.content));
      const stored = await stack.sql<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE chat_id = $1`, [saved.chatId]);
      assert.deepEqual(stored, [{ n: 2 }], "stored once");
      const after = await second.json("GET", "/api/me");
      assert.equal(after.status, 200, "nginx routes around the stopped instance");
    });

    console.log(`multi-instance test: ${passed} checks passed in ${Math.round((Date.now() - t0) / 1000)} s`);
  } finally {
    for (const c of clients) c.close();
    await stack.close();
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The instance nginx names in X-Hush-Upstream (the response headers come with the first token). */
function instanceAt(stack: Stack, upstream: string) {
  const app = stack.apps.find((a) => a.addr === upstream);
  if (!app) throw new Error(`unknown upstream "${upstream}"`);
  return app;
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error("multi-instance test FAILED:", error);
    process.exit(1);
  },
);
