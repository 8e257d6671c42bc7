import type http from "node:http";
import type { FakeScenario } from "./fake-llm-answers";
import { errorBody, sendJson } from "./fake-llm-wire";

/**
 * The fake LLM server's transcription endpoints (tests/helpers/fake-llm-server.ts; docs/issues.md #52):
 * POST /v1/audio/transcriptions (OpenAI-compatible) and /openai/v1/audio/transcriptions (groq-sdk's path).
 */

/** One transcription request as received (docs/issues.md #52): sizes and names only. */
export interface RecordedTranscription {
  path: string;
  model: string;
  responseFormat: string;
  /** Bytes of the `file` field. */
  bytes: number;
  /** Its media type, as sent. */
  type: string;
  hasAuthorization: boolean;
}

/** The fake's transcript of a recording of `bytes` bytes. */
export function fakeTranscript(bytes: number): string {
  return `Dictated words from the fake microphone (${bytes} bytes heard).`;
}

/** Seconds of a PCM WAV from its header (byte rate at 28, the "data" chunk's size), or null for anything else. */
export function wavSeconds(audio: Uint8Array): number | null {
  const view = new DataView(audio.buffer, audio.byteOffset, audio.byteLength);
  const text = (at: number) => String.fromCharCode(...audio.subarray(at, at + 4));
  if (audio.byteLength < 44 || text(0) !== "RIFF" || text(8) !== "WAVE") return null;
  const byteRate = view.getUint32(28, true);
  for (let at = 12; at + 8 <= audio.byteLength; ) {
    const size = view.getUint32(at + 4, true);
    if (text(at) === "data") return byteRate > 0 ? Math.min(size, audio.byteLength - at - 8) / byteRate : null;
    at += 8 + size + (size % 2);
  }
  return null;
}

/**
 * One transcription: the multipart body parsed by the platform's own FormData, recorded by sizes and names only, the
 * answer deterministic (`fakeTranscript`, or `transcript` when set; Groq's `verbose_json` with the WAV's `duration`), or the forced `scenario`'s
 * failure ("429", "500", "400", "hang" until `hang` resolves).
 */
export async function answerTranscription(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  fake: { scenario: FakeScenario | null; transcript: string | null; record: (t: RecordedTranscription) => void; hang: (res: http.ServerResponse) => Promise<boolean> },
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
  } catch {
    return sendJson(res, 400, errorBody("Expected multipart/form-data.", "invalid_request_error", null));
  }
  const file = form.get("file");
  if (!(file instanceof Blob)) return sendJson(res, 400, errorBody("file is required.", "invalid_request_error", null));
  const audio = new Uint8Array(await file.arrayBuffer());
  const responseFormat = String(form.get("response_format") ?? "json");
  fake.record({
    path,
    model: String(form.get("model") ?? ""),
    responseFormat,
    bytes: audio.byteLength,
    type: file.type,
    hasAuthorization: typeof req.headers.authorization === "string",
  });
  switch (fake.scenario) {
    case "429":
      res.setHeader("retry-after", "1");
      return sendJson(res, 429, errorBody("Rate limit reached (fake).", "requests", "rate_limit_exceeded"));
    case "500":
      return sendJson(res, 500, errorBody("The server had an error (fake).", "server_error", null));
    case "400":
      return sendJson(res, 400, errorBody("Could not decode the audio (fake).", "invalid_request_error", null));
    case "hang":
      await fake.hang(res);
      res.destroy();
      return;
  }
  const text = fake.transcript ?? fakeTranscript(audio.byteLength);
  const duration = wavSeconds(audio);
  return sendJson(res, 200, responseFormat === "verbose_json" ? { text, ...(duration === null ? {} : { duration }), language: "en", segments: [] } : { text });
}
