import fs from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { chatStreamEventSchemas } from "@/lib/shared/chat/stream-events";
import { api, type BodyOf } from "@/lib/shared/api/contract";
import { chatRequestSchema, DEFAULT_CHAT_LIMITS, SERVER_TOOL_RESULT_MAX_CHARS, TOOL_RESULT_MAX_CHARS, type ChatRequestBody, type EveryField } from "@/lib/shared/chat/turn-schema";
import { chatRequestBody } from "@/lib/browser/chat/send-turn";
import { openApiJson } from "@/lib/server/openapi/document";

/**
 * docs/issues.md #50 "One shape": the chat turn's body is declared once (lib/shared/chat/turn-schema.ts). The type
 * assertions below are checked by `tsc --noEmit` (npm test's type check): they fail to compile when the browser's
 * body, the contract's and the schema's input drift apart.
 */
describe("the chat turn's one shape", () => {
  it("types the browser's body, the contract's and the schema's input alike", () => {
    expectTypeOf<ReturnType<typeof chatRequestBody>>().toEqualTypeOf<EveryField<ChatRequestBody>>();
    expectTypeOf<BodyOf<typeof api.chatVisitor>>().toEqualTypeOf<ChatRequestBody>();
    expectTypeOf<BodyOf<typeof api.chatSignedIn>>().toEqualTypeOf<ChatRequestBody>();
    // At run time: the builder sets every field the schema has, and the schema accepts what it builds.
    const body = chatRequestBody({
      messages: [{ role: "user", content: "Hi" }],
      model: "llama3-8b-8192",
      file: null,
      documents: [],
      chatId: null,
      saveChat: false,
    });
    const fields = Object.keys(chatRequestSchema(DEFAULT_CHAT_LIMITS).shape).sort();
    expect(Object.keys(body).sort()).toEqual(fields);
    expect(chatRequestSchema(DEFAULT_CHAT_LIMITS).safeParse(body).success).toBe(true);
  });

  it("documents every field the server accepts in OpenAPI, for both chat calls", () => {
    const doc = JSON.parse(openApiJson().json) as {
      paths: Record<string, { post: { requestBody: { content: { "application/json": { schema: { properties: Record<string, unknown>; additionalProperties?: unknown } } } } } }>;
    };
    const fields = Object.keys(chatRequestSchema(DEFAULT_CHAT_LIMITS).shape).sort();
    for (const path of ["/api/ns/chat", "/api/ns/chat_user"]) {
      const schema = doc.paths[path]!.post.requestBody.content["application/json"].schema;
      expect(Object.keys(schema.properties).sort(), path).toEqual(fields);
      expect(schema.additionalProperties, path).toBe(false);
    }
    expect(fields).toEqual(expect.arrayContaining(["memories", "file", "instructions", "knowledge", "web_search", "document", "documents", "tools", "continuation"]));
  });

  it("documents every Server-Sent Event the chat calls write, with its data's schema, for both chat calls", () => {
    const doc = JSON.parse(openApiJson().json) as {
      paths: Record<string, { post: { responses: { "200": { content: Record<string, { schema: { $ref?: string } }> } } } }>;
      components: { schemas: Record<string, { oneOf?: { properties: { event: { const: string } } }[] }> };
    };
    for (const path of ["/api/ns/chat", "/api/ns/chat_user"]) {
      const ref = doc.paths[path]!.post.responses["200"].content["text/event-stream"]!.schema.$ref;
      const union = doc.components.schemas[ref!.split("/").at(-1)!]!;
      expect(union.oneOf!.map((o) => o.properties.event.const).sort(), path).toEqual(Object.keys(chatStreamEventSchemas).sort());
    }
    // What respond.ts writes: every `event("name", …)` it calls is in the contract.
    const written = [...fs.readFileSync(path.join(__dirname, "../../lib/server/chat/respond.ts"), "utf8").matchAll(/event\("(\w+)"/g)].map((m) => m[1]!);
    expect(new Set(written)).toEqual(new Set(Object.keys(chatStreamEventSchemas)));
  });

  it("takes device tools by name and a continuation whose results answer its calls in order (docs/issues.md #50)", () => {
    const schema = chatRequestSchema(DEFAULT_CHAT_LIMITS);
    const call = { id: "call_1", type: "function" as const, function: { name: "device_time", arguments: "{}" } };
    const result = { role: "tool" as const, tool_call_id: "call_1", content: '{"local":"2026-12-02T07:05:00","zone":"UTC"}' };
    const base = chatRequestBody({ messages: [{ role: "user", content: "Hi" }], model: "llama3-8b-8192", file: null, documents: [], chatId: null, saveChat: false });
    const continued = { ...base, tools: ["device_time" as const], continuation: { token: "c1.x.y", steps: [{ tool_calls: [call], results: [result] }] } };
    expect(schema.safeParse(continued).success).toBe(true);
    expect(schema.safeParse({ ...base, tools: ["rm_rf"] }).success).toBe(false);
    expect(schema.safeParse({ ...base, tools: Array(5).fill("device_time") }).success).toBe(false);
    const misanswered = { ...continued, continuation: { token: "t", steps: [{ tool_calls: [call], results: [{ ...result, tool_call_id: "call_2" }] }] } };
    expect(schema.safeParse(misanswered).success).toBe(false);
    const huge = { ...continued, continuation: { token: "t", steps: [{ tool_calls: [call], results: [{ ...result, content: "x".repeat(TOOL_RESULT_MAX_CHARS + 1) }] }] } };
    expect(schema.safeParse(huge).success).toBe(false);
    // A server-run step's results (docs/issues.md #51) may be as long as the server gave them, within their own bound.
    const searchCall = { ...call, function: { name: "web_search", arguments: '{"queries":["q"]}' } };
    const long = (n: number) => ({ ...continued, continuation: { token: "t", steps: [{ tool_calls: [searchCall], results: [{ ...result, content: "x".repeat(n) }] }] } });
    expect(schema.safeParse(long(TOOL_RESULT_MAX_CHARS + 1)).success).toBe(true);
    expect(schema.safeParse(long(SERVER_TOOL_RESULT_MAX_CHARS + 1)).success).toBe(false);
    const record = { via: "searxng", engine: "searx", queries: ["q"], sources: [{ title: "T", url: "https://example.org/" }], status: "ok" };
    expect(schema.safeParse({ ...continued, continuation: { ...continued.continuation, search: record } }).success).toBe(true);
    expect(schema.safeParse({ ...continued, continuation: { ...continued.continuation, search: { ...record, queries: Array(11).fill("q") } } }).success).toBe(false);
  });
});
