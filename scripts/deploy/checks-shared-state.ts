import assert from "node:assert/strict";
import { FREE_LIMIT, VISITOR_LIMIT, ask, check, type DeployContext } from "./checks";
import { STRIPE_WEBHOOK_SECRET } from "./stack";
import { makeEvent, signEvent } from "../../tests/helpers/fake-stripe-server";

/** Quotas, documents, Stripe events and the visitor's address across instances. */
export async function sharedStateChecks(ctx: DeployContext): Promise<void> {
  const { stack, client, user } = ctx;
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
    // Each new address has its own daily quota; nginx spreads them.
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
    // Stripe's retry may reach the other instance while the first still applies the event.
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
    // nginx appends the real peer after a forged X-Forwarded-For.
    const forged = await v2.json("POST", "/api/ns/chat", { json: ask("hi"), headers: { "x-forwarded-for": "203.0.113.9" } });
    assert.equal(forged.status, 429, forged.body);
    const v3 = client("127.0.0.3");
    const fresh = await v3.chat("/api/ns/chat", ask("hi"));
    assert.equal(fresh.status, 200, "another address still has its own quota");
  });
}
