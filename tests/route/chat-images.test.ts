import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/ns/chat/route";
import { developmentAnswer } from "@/lib/server/llm/development";
import { fitContext } from "@/lib/shared/llm/fit-context";
import { describeImages, IMAGE_TOKENS, imageSize, parseImageDataUrl } from "@/lib/shared/chat/images";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { setEnv } from "../helpers/env";
import { setupTestDb, type TestDb } from "../db/setup-db";

/**
 * Images for vision-capable models (docs/issues.md #23): POST /api/ns/chat, the real route handler and the real
 * openai SDK talking to the fake OpenAI-compatible server, with LLM_VISION_MODELS naming the Basic model
 * or not. Nothing here is mocked.
 */
let llm: FakeLlmServer;
let t: TestDb;
const BASIC = "llama3-8b-8192";
/** A 1x1 PNG. */
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const REFUSAL = "The Basic model cannot read images. Attach the text instead, or describe the image in your message.";

const withImages = (text: string, urls: string[]) => [{ type: "text", text }, ...urls.map((url) => ({ type: "image_url", image_url: { url } }))];
const ask = (content: unknown, extra: Record<string, unknown> = {}) => ({ messages: [{ role: "user", content }], model: BASIC, ...extra });

function post(body: unknown) {
  return POST(
    new Request("http://localhost/api/ns/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

beforeAll(async () => {
  llm = await startFakeLlmServer();
  setEnv({ LLM_BASE_URL: `${llm.url}/v1`, LLM_API_KEY: "test", LLM_TIMEOUT_MS: "1500", GROQ_API_KEY: undefined, QUOTA_VISITOR_PER_DAY: "10000" });
  t = await setupTestDb();
});

afterAll(async () => {
  await t.cleanup();
  await llm.close();
  setEnv({ LLM_BASE_URL: undefined, LLM_TIMEOUT_MS: undefined, QUOTA_VISITOR_PER_DAY: undefined, LLM_VISION_MODELS: undefined, CHAT_MAX_IMAGE_BYTES: undefined });
});

beforeEach(() => {
  llm.requests.length = 0;
  setEnv({ LLM_VISION_MODELS: BASIC, CHAT_MAX_IMAGE_BYTES: undefined });
});

describe("an image for a model that reads images (LLM_VISION_MODELS)", () => {
  it("reaches the provider as an image_url content part after the text; the answer echoes the text only", async () => {
    const res = await post(ask(withImages("What is in this picture?", [PNG])));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.messages[0]).toEqual({ role: "user", content: "What is in this picture?" });
    expect(body.messages[1].content).toBe("You asked: What is in this picture? Images: 1.");
    const sent = llm.requests[0]!.messages.at(-1)!;
    expect(sent).toEqual({ role: "user", content: "What is in this picture?", images: [PNG] });
  });

  it("keeps an earlier message's image for a follow-up question", async () => {
    const res = await post({
      model: BASIC,
      messages: [
        { role: "user", content: withImages("Look at this", [PNG]) },
        { role: "assistant", content: "A pixel." },
        { role: "user", content: "What colour is it?" },
      ],
    });
    expect(res.status).toBe(200);
    expect(llm.requests[0]!.messages.map((m) => m.images?.length ?? 0)).toEqual([0, 1, 0, 0]);
  });
});

describe("refusals (400 with a sentence the chat shows), before the provider is called", () => {
  it("a model that reads text only", async () => {
    setEnv({ LLM_VISION_MODELS: undefined });
    const res = await post(ask(withImages("Describe", [PNG])));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(REFUSAL);
    expect(llm.requests).toHaveLength(0);
  });

  it.each([
    ["a type outside png, jpeg, webp, gif", () => ask(withImages("x", ["data:image/svg+xml;base64,PHN2Zy8+"])), /must be a PNG, JPEG, WebP or GIF/],
    ["a URL instead of a data URL (never fetched)", () => ask(withImages("x", ["https://example.com/a.png"])), /base64 data URL/],
    ["base64 that is not", () => ask(withImages("x", ["data:image/png;base64,@@@@"])), /base64 data URL/],
    ["too many images on one message", () => ask(withImages("x", Array(5).fill(PNG))), /at most 4 images/],
    [
      "too many images in one request",
      () => ({
        model: BASIC,
        messages: [
          { role: "user", content: withImages("a", Array(3).fill(PNG)) },
          { role: "assistant", content: "ok" },
          { role: "user", content: withImages("b", Array(3).fill(PNG)) },
        ],
      }),
      /at most 5 images/,
    ],
    ["an image on an assistant message", () => ({ model: BASIC, messages: [{ role: "assistant", content: withImages("x", [PNG]) }, { role: "user", content: "y" }] }), /Only your own messages/],
    ["only an image, no text", () => ask(withImages("", [PNG])), /non-empty user message/],
    ["an unknown part type", () => ask([{ type: "audio", audio: "x" }]), /.+/],
    ["an extra field in a part", () => ask([{ type: "text", text: "x", detail: "high" }]), /.+/],
  ])("%s", async (_name, body, message) => {
    const res = await post(body());
    expect(res.status).toBe(400);
    const error = (await res.json()).error as string;
    expect(error).toMatch(message);
    expect(error).not.toContain("base64,iVBOR");
    expect(llm.requests).toHaveLength(0);
  });

  it("an image larger than CHAT_MAX_IMAGE_BYTES", async () => {
    setEnv({ CHAT_MAX_IMAGE_BYTES: "50" });
    const res = await post(ask(withImages("x", [PNG])));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/An image can be at most/);
  });
});

describe("lib/shared/chat/images.ts and the budget", () => {
  it("reads the size of PNG, GIF, JPEG and WebP headers", () => {
    const bytes = (b64: string) => Uint8Array.from(Buffer.from(b64, "base64"));
    expect(imageSize(bytes(parseImageDataUrl(PNG)!.base64))).toEqual({ width: 1, height: 1 });
    expect(imageSize(bytes("R0lGODlhAwACAIAAAP///wAAACH5BAEAAAAALAAAAAADAAIAAAICjF8AOw=="))).toEqual({ width: 3, height: 2 });
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, 0, 600, 0, 0, 0, 0]);
    jpeg[13] = 0x02; // height 0x0258 = 600
    jpeg[14] = 0x58;
    jpeg[15] = 0x03; // width 0x0320 = 800
    jpeg[16] = 0x20;
    expect(imageSize(jpeg)).toEqual({ width: 800, height: 600 });
    const webp = new Uint8Array(30);
    webp.set([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x58]);
    webp.set([99, 0, 0, 49, 0, 0], 24); // 100x50
    expect(imageSize(webp)).toEqual({ width: 100, height: 50 });
    expect(parseImageDataUrl(PNG)?.bytes).toBe(Buffer.from(PNG.split(",")[1]!, "base64").length);
  });

  it("counts an image as IMAGE_TOKENS: an older message with an image is left out first", () => {
    const history = [
      { role: "user", content: "old", images: [{ url: PNG }] },
      { role: "assistant", content: "ok" },
      { role: "user", content: "new" },
    ];
    const roomy = fitContext({ history, documents: [], budgetTokens: 10_000 });
    expect(roomy.report.omitted_messages).toBe(0);
    expect(roomy.messages[1]!.images).toEqual([{ url: PNG }]);
    const tight = fitContext({ history, documents: [], budgetTokens: IMAGE_TOKENS });
    expect(tight.report.omitted_messages).toBe(1);
    expect(tight.messages.map((m) => m.content).slice(-2)).toEqual(["ok", "new"]);
    expect(tight.messages.some((m) => m.images)).toBe(false);
  });

  it("the development responder says how many images of which size arrived", () => {
    expect(describeImages([{ url: PNG }, { url: PNG }])).toBe("2 images (1x1, 1x1)");
    expect(developmentAnswer([{ role: "user", content: "Look", images: [{ url: PNG }] }])).toContain("I received 1 image (1x1).");
  });
});
