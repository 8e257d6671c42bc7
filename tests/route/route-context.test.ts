import { describe, expect, it } from "vitest";
import { z } from "@/lib/shared/zod";
import { api } from "@/lib/shared/api/contract";
import { route, type RouteContext } from "@/lib/server/api/route";

/**
 * The handler's context (lib/server/api/route.ts): the client's signal, the body reader and the answer
 * writers, here over a Web Request (Next's side; the hot path's side is tests/route/hot-path*.test.ts).
 */
const post = (body: string, signal?: AbortSignal) =>
  new Request("http://localhost/api/ns/chat", { method: "POST", headers: { "Content-Type": "application/json" }, body, signal });

describe("the route context over a Web Request", () => {
  it("gives the request's signal, reads and validates the body once, and answers JSON text", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | null = null;
    const handler = route(api.chatVisitor, { handlerReadsBody: true }, async (ctx) => {
      seen = ctx.signal;
      const body = await ctx.readBody(z.strictObject({ n: z.number() }), 64);
      await expect(ctx.readBody(z.unknown(), 64)).rejects.toThrow();
      return ctx.json(JSON.stringify({ twice: body.n * 2 }), { status: 201 });
    });
    const response = await handler(post(JSON.stringify({ n: 21 }), controller.signal));
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ twice: 42 });
    controller.abort();
    expect(seen!.aborted).toBe(true);
  });

  it("refuses a body past readBody's limit or failing its schema with the wrapper's answers", async () => {
    const handler = route(api.chatVisitor, { handlerReadsBody: true }, async (ctx) => {
      await ctx.readBody(z.strictObject({ n: z.number() }), 16);
      return ctx.json("{}");
    });
    expect((await handler(post(JSON.stringify({ n: 1, pad: "x".repeat(40) })))).status).toBe(413);
    expect((await handler(post(JSON.stringify({ n: "one" })))).status).toBe(400);
  });

  it("streams what a producer writes into a Web body", async () => {
    const handler = route(api.chatVisitor, { handlerReadsBody: true }, async (ctx) =>
      ctx.stream(
        async (sink) => {
          sink.write("a");
          if (!sink.write("b")) await sink.ready();
          sink.end();
        },
        { headers: { "Content-Type": "text/plain" } },
      ),
    );
    expect(await (await handler(post("{}"))).text()).toBe("ab");
  });
});

/** Never called: a method taken off the context loses its `this`, which the compiler refuses. */
export function detachedCallsDoNotCompile(ctx: RouteContext<typeof api.chatVisitor, Record<string, never>>): void {
  const { readBody, stream, json } = ctx;
  // @ts-expect-error `this` is the context
  void readBody(z.unknown());
  // @ts-expect-error `this` is the context
  stream(async (sink) => sink.end(), {});
  // @ts-expect-error `this` is the context
  json("{}");
}
