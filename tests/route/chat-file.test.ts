import http from "node:http";
import { readFileSync } from "node:fs";
import { PDFParse } from "pdf-parse";
import { WorkerMessageHandler } from "pdfjs-dist/legacy/build/pdf.worker.mjs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as visitorPOST } from "@/app/api/ns/chat/route";
import { POST as signedInPOST } from "@/app/api/ns/chat_user/route";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { installPeerStamp, PEER_ADDRESS_HEADER } from "@/lib/server/peer-address";
import { installRequestGuard } from "@/lib/server/request-guard";
import { closeQuota } from "@/lib/server/quota";
import { closePdfWorkers } from "@/lib/server/pdf";
import { NOT_PDF_MESSAGE } from "@/lib/shared/pdf/errors";
import { extractPdfText, type PdfParseClass } from "@/lib/shared/pdf/extract-text";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { startHotPathServer, stopHotPathServer } from "../helpers/hot-path-server";
import { BOMB_VARIANTS, pdfBomb, pdfBombVariant } from "../helpers/pdf-bomb";

/**
 * The spec's `file` (docs/product.md §7; docs/issues.md #39): a PDF as a data URL on /api/ns/chat and
 * /api/ns/chat_user, read by the server (lib/server/chat/file.ts, lib/server/pdf: pdf-parse in a worker thread)
 * for a standard model and answered as if the browser had sent its text as `document`. Both servers of the
 * routes: Next's route handlers (called directly) and server.mjs's hot path (lib/server/hot-path.ts) over real
 * HTTP, with the fake LLM; nothing mocked. Bombs, damaged and non-PDF files answer 4xx while other turns go on.
 */
let t: TestDb;
let llm: FakeLlmServer;
let server: http.Server;
let base: string;
const BASIC = "llama3-8b-8192";
const ENV: Record<string, string> = {
  QUOTA_VISITOR_PER_DAY: "10000",
  QUOTA_FREE_PER_DAY: "10000",
  LLM_API_KEY: "test",
  LLM_TIMEOUT_MS: "5000",
  // The hot path's requests come from 127.0.0.1: trusted, so X-Forwarded-For tells test clients apart.
  TRUSTED_PROXIES: "127.0.0.1",
};
const PDF_SETTINGS = ["PDF_MAX_BYTES", "PDF_MAX_PAGES", "PDF_PARSE_TIMEOUT_MS", "PDF_MAX_INFLATED_BYTES", "CONFIDENTIAL_API_KEY", "CONFIDENTIAL_MODELS", "CONFIDENTIAL_TRUST", "CONFIDENTIAL_BASE_URL"];

const fixture = (name: string) => readFileSync(`tests/fixtures/${name}`);
const dataUrl = (bytes: Buffer, type = "application/pdf") => `data:${type};base64,${bytes.toString("base64")}`;
const pdfFile = (name: string, bytes: Buffer = fixture(name)) => ({ name, type: "application/pdf", content: dataUrl(bytes) });
const ask = (content: string, extra: Record<string, unknown> = {}) => ({ messages: [{ role: "user", content }], model: BASIC, chat_id: null, save_chat: false, ...extra });

/** Settings for one test on top of ENV; PDF and confidential settings of an earlier test are undone. */
function settings(extra: Record<string, string> = {}) {
  for (const k of PDF_SETTINGS) delete process.env[k];
  Object.assign(process.env, extra);
  resetConfigForTests();
}

/** POST through the hot path over HTTP, as `client` (an X-Forwarded-For address). */
function hot(path: string, body: unknown, client = "203.0.113.1", headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Origin: new URL(getConfig().APP_URL).origin, "X-Forwarded-For": client, ...headers },
    body: JSON.stringify(body),
  });
}

/** POST to Next's route handler of /api/ns/chat, called directly. */
function viaNext(body: unknown, client = "198.51.100.1"): Promise<Response> {
  return visitorPOST(
    new Request("http://localhost/api/ns/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", [PEER_ADDRESS_HEADER]: client },
      body: JSON.stringify(body),
    }),
  );
}

/** The text of the last user message the model was sent. */
const lastUserText = () => llm.requests.at(-1)?.messages.at(-1)?.content ?? "";

beforeAll(async () => {
  llm = await startFakeLlmServer();
  Object.assign(process.env, ENV, { LLM_BASE_URL: `${llm.url}/v1` });
  delete process.env.GROQ_API_KEY;
  t = await setupTestDb();
  resetConfigForTests();
  installPeerStamp();
  installRequestGuard();
  ({ server, base } = await startHotPathServer());
});

afterAll(async () => {
  await stopHotPathServer(server);
  await closePdfWorkers();
  await t.cleanup();
  await llm.close();
  await closeQuota();
  for (const k of [...Object.keys(ENV), ...PDF_SETTINGS, "LLM_BASE_URL"]) delete process.env[k];
  resetConfigForTests();
});

beforeEach(() => {
  settings();
  llm.requests.length = 0;
});

describe("a PDF in the spec's `file`, for a standard model", () => {
  it("is read and answered through Next's route: the assistant's answer last, the PDF's text in the model request", async () => {
    const res = await viaNext(ask("What do the pages say?", { file: pdfFile("multipage.pdf") }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.chat_id).toBeNull();
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0]).toEqual({ role: "user", content: "What do the pages say?" });
    expect(body.messages.at(-1).role).toBe("assistant");
    expect(body.messages.at(-1).content).toContain("The document begins: Section 1");
    // Neither the file nor its text is echoed.
    expect(JSON.stringify(body)).not.toContain("Page 8 marker");
    expect(llm.requests).toHaveLength(1);
    const sent = lastUserText();
    expect(sent).toContain('<document name="multipage.pdf"');
    for (const [i, word] of ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"].entries()) {
      expect(sent).toContain(`Page ${i + 1} marker: ${word}.`);
    }
    expect(sent).toContain("Zürich.");
  });

  it("sends the model exactly what the same PDF's text sent by the browser as `document` sends", async () => {
    (globalThis as unknown as { pdfjsWorker: unknown }).pdfjsWorker = { WorkerMessageHandler };
    const c = getConfig();
    const read = await extractPdfText(PDFParse as unknown as PdfParseClass, new Uint8Array(fixture("e2e-report.pdf")), {
      maxBytes: c.PDF_MAX_BYTES,
      maxPages: c.PDF_MAX_PAGES,
      maxChars: c.PDF_MAX_TEXT_CHARS,
      maxInflatedBytes: c.PDF_MAX_INFLATED_BYTES,
    });
    const viaDocument = await viaNext(ask("Summarise", { document: { name: "report.pdf", text: read.text, truncated: read.truncated } }));
    const viaFile = await hot("/api/ns/chat", ask("Summarise", { file: pdfFile("report.pdf", fixture("e2e-report.pdf")) }));
    expect([viaDocument.status, viaFile.status]).toEqual([200, 200]);
    expect(await viaFile.json()).toEqual(await viaDocument.json());
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.messages).toEqual(llm.requests[0]!.messages);
  });

  it("is read on /api/ns/chat_user (signed in), through the hot path and through Next", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const body = ask("And this one?", { file: pdfFile("e2e-report.pdf") });
    const res = await hot("/api/ns/chat_user", body, "203.0.113.2", { Cookie: cookie });
    expect(res.status).toBe(200);
    expect((await res.json()).messages.at(-1)).toMatchObject({ role: "assistant" });
    expect(lastUserText()).toContain("Hush quarterly privacy report.");
    const next = await signedInPOST(
      new Request("http://localhost/api/ns/chat_user", {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie, Origin: new URL(getConfig().APP_URL).origin },
        body: JSON.stringify(body),
      }),
    );
    expect(next.status).toBe(200);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.messages).toEqual(llm.requests[0]!.messages);
  });

  it("keeps PDF_MAX_PAGES and PDF_MAX_BYTES, as the browser does", async () => {
    settings({ PDF_MAX_PAGES: "3" });
    expect((await hot("/api/ns/chat", ask("Read", { file: pdfFile("multipage.pdf") }))).status).toBe(200);
    expect(lastUserText()).toContain("Page 3 marker: charlie.");
    expect(lastUserText()).not.toContain("Page 4 marker");
    expect(lastUserText()).toMatch(/\[Note: this document was too long and is truncated/);
    settings({ PDF_MAX_BYTES: String(20 * 1024) });
    const res = await hot("/api/ns/chat", ask("Read", { file: pdfFile("multipage.pdf") }));
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("This PDF is too large. The limit is 20 KB.");
  });

  it("stops a read that passes PDF_PARSE_TIMEOUT_MS with a 422", async () => {
    settings({ PDF_PARSE_TIMEOUT_MS: "1" });
    const res = await hot("/api/ns/chat", ask("Read", { file: pdfFile("multipage.pdf") }));
    expect(res.status).toBe(422);
    expect((await res.json()).error).toBe("This PDF took too long to read. Try a smaller PDF.");
    settings();
    expect((await hot("/api/ns/chat", ask("Read", { file: pdfFile("multipage.pdf") }))).status).toBe(200);
  });
});

describe("a `file` the server cannot read answers a 4xx JSON error, and the model is not called", () => {
  const cases: [string, () => Record<string, unknown>, number, string | RegExp][] = [
    ["another type (docs/product.md §5)", () => ({ file: { name: "a.png", type: "image/png", content: dataUrl(fixture("not-a-pdf.png"), "image/png") } }), 415, NOT_PDF_MESSAGE],
    ["a PNG called a PDF", () => ({ file: pdfFile("a.pdf", fixture("not-a-pdf.png")) }), 415, NOT_PDF_MESSAGE],
    ["content that is no data URL", () => ({ file: { name: "a.pdf", type: "application/pdf", content: "JVBERi0xLjcK" } }), 400, /base64 data URL/],
    ["a password-protected PDF", () => ({ file: pdfFile("encrypted.pdf") }), 422, "This PDF is password-protected. Remove the password and try again."],
    ["a damaged PDF", () => ({ file: pdfFile("corrupt.pdf") }), 422, "This PDF could not be read. It may be damaged."],
    ["a truncated PDF", () => ({ file: pdfFile("truncated.pdf") }), 422, "This PDF could not be read. It may be damaged."],
    ["an image-only PDF", () => ({ file: pdfFile("image-only.pdf") }), 422, /has no selectable text/],
    ["both `file` and `document`", () => ({ file: pdfFile("e2e-report.pdf"), document: { name: "r.pdf", text: "x" } }), 400, /either as `file` or as `document`/],
    ["a file without a name", () => ({ file: { ...pdfFile("e2e-report.pdf"), name: " " } }), 400, /Invalid request: file/],
  ];

  it.each(cases)("%s", async (_label, extra, status, message) => {
    for (const send of [() => hot("/api/ns/chat", ask("Read", extra())), () => viaNext(ask("Read", extra()))]) {
      const res = await send();
      expect(res.status).toBe(status);
      const body = await res.json();
      if (typeof message === "string") expect(body.error).toBe(message);
      else expect(body.error).toMatch(message);
    }
    expect(llm.requests).toHaveLength(0);
  });

  it("a `file` for a confidential model: 409, never read", async () => {
    settings({ CONFIDENTIAL_API_KEY: "sk-file-test", CONFIDENTIAL_MODELS: BASIC, CONFIDENTIAL_TRUST: "development", CONFIDENTIAL_BASE_URL: "http://127.0.0.1:9" });
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const body = ask("Read", { file: pdfFile("e2e-report.pdf") });
    for (const res of [await hot("/api/ns/chat", body), await viaNext(body), await hot("/api/ns/chat_user", body, "203.0.113.3", { Cookie: cookie })]) {
      expect(res.status).toBe(409);
    }
    // Even a file the server could never read: the confidential refusal comes first.
    expect((await hot("/api/ns/chat", ask("Read", { file: pdfFile("a.pdf", fixture("not-a-pdf.png")) }))).status).toBe(409);
    expect(llm.requests).toHaveLength(0);
  });
});

describe("decompression bombs in `file` (docs/issues.md #22 variants)", () => {
  const bombs: { name: string; bytes: Buffer }[] = [];
  beforeAll(async () => {
    bombs.push({ name: "plain", bytes: await pdfBomb() });
    for (const variant of BOMB_VARIANTS) bombs.push({ name: variant, bytes: await pdfBombVariant(variant) });
  }, 120_000);

  /** Milliseconds one plain turn takes through the hot path. */
  async function plainTurn(label: string): Promise<number> {
    const start = performance.now();
    const res = await hot("/api/ns/chat", ask(`Plain turn ${label}`), "192.0.2.200");
    expect(res.status).toBe(200);
    expect((await res.json()).messages.at(-1).content).toContain(`You asked: Plain turn ${label}.`);
    return performance.now() - start;
  }

  it(
    "are refused with 422 while plain turns sent meanwhile answer in under 2 s",
    async () => {
      // 16 MiB, as tests/unit/pdf.test.ts: each bomb costs the worker a sixth of the default's work, so five
      // queued ones fit the queue's wait on a loaded machine; the default limit's sentence is tested below.
      settings({ PDF_MAX_INFLATED_BYTES: String(16 * 1024 * 1024) });
      // Warm (JIT, connections, the PDF worker), then the idle time of a plain turn: the median of three.
      await plainTurn("warm");
      expect((await hot("/api/ns/chat", ask("Warm", { file: pdfFile("e2e-report.pdf") }), "192.0.2.9")).status).toBe(200);
      const idleRuns = [await plainTurn("idle 1"), await plainTurn("idle 2"), await plainTurn("idle 3")].sort((a, b) => a - b);
      const idle = idleRuns[1]!;
      llm.requests.length = 0;
      let settled = 0;
      // Each bomb from a client of its own, so all five are read (one at a time: the workers' queue).
      const refusals = bombs.map(({ name, bytes }, i) =>
        hot("/api/ns/chat", ask("Summarise", { file: pdfFile(`${name}.pdf`, bytes) }), `192.0.2.${10 + i}`).then(async (res) => {
          settled++;
          return { name, status: res.status, error: (await res.json()).error as string };
        }),
      );
      // Plain turns while the bombs are being read, one after another until every bomb is answered (at least
      // three): each is timed; the bombs still in flight show they overlapped. On an idle machine the bombs
      // are refused within a second or two, so the turns follow each other closely.
      const during: { ms: number; bombsLeft: number }[] = [];
      for (let i = 0; i < 40 && (i < 3 || settled < bombs.length); i++) {
        const left = bombs.length - settled;
        const ms = await plainTurn(`busy ${i}`);
        during.push({ ms, bombsLeft: left });
        await new Promise((r) => setTimeout(r, 20));
      }
      const results = await Promise.all(refusals);
      console.log(`plain turn idle ${idle.toFixed(0)} ms; while bombs were read: ${during.map((d) => `${d.ms.toFixed(0)} ms (${d.bombsLeft} left)`).join(", ")}`);
      // The turns really ran while bombs were being read, and none waited for them: each answered in under 2 s
      // (or, on a machine so loaded that an idle turn takes longer, within three idle turns' time; a turn that
      // waited for the bombs would take their seconds of reading).
      expect(during.filter((d) => d.bombsLeft > 0).length).toBeGreaterThanOrEqual(1);
      for (const d of during) expect(d.ms).toBeLessThan(Math.max(2000, 3 * idle));
      for (const r of results) {
        expect(r.status, r.name).toBe(422);
        expect(r.error, r.name).toBe("This PDF expands to more than 16 MB when opened, which is more than Hush reads. Try a smaller PDF.");
      }
      // Only the plain turns reached the model.
      expect(llm.requests).toHaveLength(during.length);
      expect(llm.requests.every((r) => !r.messages.at(-1)!.content.includes("<document"))).toBe(true);
    },
    120_000,
  );

  it("the default PDF_MAX_INFLATED_BYTES: a 1 GiB bomb answers 422 naming 50 MB", async () => {
    const res = await hot("/api/ns/chat", ask("Summarise", { file: pdfFile("bomb.pdf", bombs[0]!.bytes) }), "192.0.2.40");
    expect(res.status).toBe(422);
    expect((await res.json()).error).toBe("This PDF expands to more than 50 MB when opened, which is more than Hush reads. Try a smaller PDF.");
  }, 60_000);

  it("one PDF at a time per client: a second one meanwhile answers 429 with Retry-After", async () => {
    const [first, second] = await Promise.all([
      hot("/api/ns/chat", ask("Summarise", { file: pdfFile("bomb.pdf", bombs[0]!.bytes) }), "192.0.2.50"),
      new Promise((r) => setTimeout(r, 300)).then(() => hot("/api/ns/chat", ask("Summarise", { file: pdfFile("multipage.pdf") }), "192.0.2.50")),
    ]);
    expect(first.status).toBe(422);
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("2");
    expect((await second.json()).error).toMatch(/Another of your PDFs is still being read/);
    expect((await hot("/api/ns/chat", ask("Summarise", { file: pdfFile("multipage.pdf") }), "192.0.2.50")).status).toBe(200);
  }, 60_000);
});
