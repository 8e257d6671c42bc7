import assert from "node:assert/strict";
import { FREE_LIMIT, ask, check, deferred, instanceAt, type DeployContext } from "./checks";
import { setUpVault } from "./vault";
import { signIn } from "./sign-in";

/** Faults: an instance killed, PostgreSQL and Redis away, the LLM failing. */
export async function faultChecks(ctx: DeployContext): Promise<void> {
  const { stack, client, user } = ctx;
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
    // No `done`, so the page shows the docs/product.md §8 message and keeps the typed text.
    if (outcome.ok) assert.ok(!outcome.r.events.some((e) => e.event === "done"), "no answer from a killed instance");
    for (let i = 0; i < 4; i++) {
      const r = await user.json("GET", "/api/me");
      assert.equal(r.status, 200, `request ${i} after the kill: ${r.status}`);
    }
    const fresh = await client("127.0.0.6").chat("/api/ns/chat", ask("still there?"));
    assert.equal(fresh.events.at(-1)?.event, "done");
    await victim.exited;
    await stack.startApp(stack.apps.indexOf(victim));
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
    // Users' counts live in PostgreSQL whether or not Redis runs, so the outage's count still holds.
    const after = await third.json("POST", "/api/ns/chat_user", { json: ask("after the outage") });
    assert.equal(after.status, 429, `the limit still holds after the outage: ${after.body}`);
  });

  await check("fault: the LLM answers 500, times out or cuts the stream: a clear error, nothing saved", async () => {
    const fourth = client();
    await signIn(stack, fourth, "llm-fault@example.test");
    // Without a `done` the browser seals nothing for chat_save, and the server stores nothing.
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
}
