import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import type { HttpsClient } from "./https-client";
import type { PlainMessage } from "../../lib/browser/vault/seal";
import { ask, check, type DeployContext } from "./checks";
import { listMigrations } from "../../lib/server/db/migrate";
import { readChat, saveTurn, setUpVault, unlockVault } from "./vault";
import { signIn } from "./sign-in";

/** Sessions across instances, saved history, body limits. */
export async function historyChecks(ctx: Omit<DeployContext, "user">): Promise<HttpsClient> {
  const { stack, A, B, other, client } = ctx;
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
    // Only wrapped keys reach the server.
    const vault = await setUpVault(user, "lighthouse passphrase");
    const question = "Remember the lighthouse";
    const sent = await user.chat("/api/ns/chat_user", ask(question));
    assert.equal(sent.status, 200, sent.body);
    const done = sent.events.at(-1)!;
    assert.equal(done.event, "done", sent.body);
    const answer = (done.data as { chat_id: string | null; messages: { role: string; content: string }[] });
    assert.equal(answer.chat_id, null, "chat_user stores nothing: no chat id of its own");
    const turn: PlainMessage[] = [{ role: "user", content: question }, { role: "assistant", content: answer.messages.at(-1)!.content }];
    // Stored through one instance, read through the other.
    const saved = await saveTurn(user, vault, null, 0, turn);
    assert.equal(saved.status, 200, saved.body);
    const chatId = saved.chatId;
    const stored = await stack.sql<{ n: number; plain: boolean }>(
      `SELECT count(*)::int AS n, bool_or(encode(content_ciphertext, 'escape') LIKE '%lighthouse%') AS plain FROM messages WHERE chat_id = $1`,
      [chatId],
    );
    assert.deepEqual(stored, [{ n: 2, plain: false }], "two rows, ciphertext only");
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
    // The app's own JSON 400 proves nginx let the body through.
    const big = await user.json<{ error: string }>("POST", "/api/ns/chat_save", { json: { padding: "x".repeat(3 * 1024 * 1024) } });
    assert.equal(big.status, 400, big.body.slice(0, 200));
    assert.equal(typeof big.data?.error, "string");
    const small = await user.request("PATCH", "/api/vault", { json: { padding: "x".repeat(2 * 1024 * 1024) } });
    assert.equal(small.status, 413, "nginx's 1m default");
    assert.equal(small.upstream, "", "refused before any instance");
  });
  return user;
}
