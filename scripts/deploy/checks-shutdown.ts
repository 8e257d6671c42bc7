import assert from "node:assert/strict";
import type { PlainMessage } from "../../lib/browser/vault/seal";
import { GRACE_SECONDS, ask, check, deferred, instanceAt, type DeployContext } from "./checks";
import { readChat, saveTurn, setUpVault } from "./vault";
import { signIn } from "./sign-in";

/** SIGTERM during streams. */
export async function shutdownChecks(ctx: DeployContext): Promise<void> {
  const { stack, client } = ctx;
  await check("SIGTERM during 21 streams: all finish, the turn is then saved (chat_save), the other instance serves, exit 0", async () => {
    const second = client();
    await signIn(stack, second, "drain@example.test");
    const vault = await setUpVault(second, null);
    const before = stack.llm.requests.length;
    const upstream = deferred<string>();
    const streamDone = second.chat("/api/ns/chat_user", ask("Tell me slowly [[fake:slow]]", { save_chat: true }), { onHeaders: upstream.resolve });
    const streaming = instanceAt(stack, await upstream.promise);
    const others = Array.from({ length: 20 }, (_, i) => client(`127.0.2.${i + 1}`).chat("/api/ns/chat", ask("Slowly too [[fake:slow]]")));
    while (stack.llm.requests.length < before + 21) await new Promise((r) => setTimeout(r, 50));
    streaming.proc.kill("SIGTERM");
    const started = Date.now();
    // While it drains, requests through nginx keep working.
    for (let i = 0; i < 4; i++) {
      const me = await second.json("GET", "/api/me");
      assert.equal(me.status, 200, me.body);
    }
    const result = await streamDone;
    assert.equal(result.status, 200);
    const last = result.events.at(-1)!;
    assert.equal(last.event, "done", result.body.slice(-300));
    assert.equal(result.events.filter((e) => e.event === "delta").length, 20);
    // Saved while the stopped instance drains: nginx sends it to one that accepts it, and it is stored once.
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
}
