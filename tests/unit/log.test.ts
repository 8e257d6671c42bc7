import { afterEach, describe, expect, it } from "vitest";
import { captureLogsForTests, escapeForLog, logger, pseudonym, REDACTED_FIELDS } from "@/lib/server/log";

/** docs/issues.md #10, logs: the one redaction list and the escaping, on records as production writes them. */
let capture: ReturnType<typeof captureLogsForTests> | undefined;
afterEach(() => capture?.restore());

describe("the logger", () => {
  it("writes one JSON line per record with level, time, component and message", () => {
    capture = captureLogsForTests();
    logger("test").info({ count: 2 }, "hello");
    expect(capture.lines).toHaveLength(1);
    expect(JSON.parse(capture.lines[0]!)).toMatchObject({ level: "info", component: "test", count: 2, msg: "hello" });
    expect(typeof JSON.parse(capture.lines[0]!).time).toBe("string");
  });

  it("never writes message text, attachment text, titles, tokens, cookies or secrets, at any depth", () => {
    capture = captureLogsForTests();
    const secrets = {
      content: "canary message text",
      title: "canary title",
      attachmentText: "canary attachment",
      token: "canary-token",
      cookie: "next-auth.session-token=canary-cookie",
      authorization: "Bearer canary-bearer",
      nested: { deeper: { messages: [{ content: "canary nested" }], idToken: "canary-id-token", secret: "canary-secret" } },
    };
    logger("test").error(secrets, "request failed");
    const line = capture.lines[0]!;
    expect(line).not.toContain("canary");
    expect(JSON.parse(line).nested.deeper.idToken).toBe("[redacted]");
    for (const k of ["content", "title", "token", "cookie", "authorization", "images", "image_url"]) expect(REDACTED_FIELDS.has(k)).toBe(true);
  });

  it("writes e-mail addresses only as a stable keyed hash, in fields and inside strings", () => {
    capture = captureLogsForTests();
    logger("test").info({ email: "Someone@Example.test", note: "mail to someone@example.test failed" }, "for someone@example.test");
    const line = capture.lines[0]!;
    expect(line.toLowerCase()).not.toContain("someone@example.test");
    const record = JSON.parse(line);
    expect(record.email).toBe(pseudonym("someone@example.test"));
    expect(record.note).toBe(`mail to ${pseudonym("someone@example.test")} failed`);
    expect(record.msg).toBe(`for ${pseudonym("someone@example.test")}`);
  });

  it("escapes control characters in every field and the message, so input cannot start a new line", () => {
    capture = captureLogsForTests();
    logger("test").warn({ code: "a\n{\"level\":\"fatal\"}\r\u001b[31m\u2028" }, "x\ny");
    expect(capture.lines).toHaveLength(1);
    const record = JSON.parse(capture.lines[0]!);
    expect(record.code).toBe('a\\n{"level":"fatal"}\\r\\u001b[31m\\u2028');
    expect(record.msg).toBe("x\\ny");
    expect(escapeForLog("x".repeat(10_000)).length).toBeLessThan(600);
  });

  it("logs errors by type and message through the same list", () => {
    capture = captureLogsForTests();
    logger("test").error({ err: new Error("broken for a@b.example") }, "oops");
    const record = JSON.parse(capture.lines[0]!);
    expect(record.err.type).toBe("Error");
    expect(record.err.message).toBe(`broken for ${pseudonym("a@b.example")}`);
  });
});
