/**
 * EHBP end to end against the development enclave started in-process: JSON and streamed round trips through
 * a relay that sees only ciphertext, the ehbp project's shared test vectors, and fail-closed behaviour on any
 * changed byte (request → the enclave refuses with 400; response or nonce → the client throws).
 */
import http from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Identity, PROTOCOL, bytesToHex, decryptChunk, deriveResponseKeys, hexToBytes } from "ehbp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/shared/errors";
import { verifyEnclave, type VerifiedEnclave } from "@/lib/browser/confidential/attestation";
import { CONFIDENTIAL_REQUEST_FAILED, isConfidentialRequestError, sendConfidentialRequest, type ConfidentialRequestFailure } from "@/lib/browser/confidential/ehbp-client";
import { startDevEnclave, type DevEnclave } from "@/dev/enclave";
import { USAGE_METRICS_HEADER, USAGE_METRICS_REQUEST_HEADER, formatUsageMetrics, parseUsageMetrics } from "@/lib/server/confidential/usage-metrics";
import { flipByte, sseContent, startTamperingRelay, type TamperingRelay } from "./helpers";

const fixtures = path.join(import.meta.dirname, "../fixtures/confidential");
const CANARY = "canary-7f3a9c2e-plaintext";

function chatBody(stream: boolean, model = "hush-dev-model"): string {
  return JSON.stringify({
    model,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
    messages: [
      { role: "system", content: "You are Hush." },
      { role: "user", content: `Please repeat ${CANARY}` },
    ],
  });
}

async function failure(promise: Promise<unknown>): Promise<ConfidentialRequestFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(CONFIDENTIAL_REQUEST_FAILED);
    if (!isConfidentialRequestError(error)) throw error;
    return error.reason;
  }
  throw new Error("expected ConfidentialRequestError");
}

describe("ehbp shared test vectors (encrypted-http-body-protocol/test-vectors)", () => {
  it("derives the response key and nonce base", async () => {
    const v = JSON.parse(readFileSync(path.join(fixtures, "ehbp-derive.json"), "utf8"));
    const km = await deriveResponseKeys(hexToBytes(v.exportedSecret), hexToBytes(v.requestEnc), hexToBytes(v.responseNonce));
    expect(bytesToHex(km.keyBytes)).toBe(v.derivedKey);
    expect(bytesToHex(km.nonceBase)).toBe(v.derivedNonceBase);
  });

  it("decrypts the recorded response, and refuses it with one byte changed", async () => {
    const v = JSON.parse(readFileSync(path.join(fixtures, "ehbp-response-decryption.json"), "utf8"));
    const km = await deriveResponseKeys(hexToBytes(v.exportedSecret), hexToBytes(v.requestEnc), hexToBytes(v.responseNonce));
    const framed = hexToBytes(v.encryptedResponse);
    const length = new DataView(framed.buffer).getUint32(0, false);
    expect(framed.byteLength).toBe(4 + length);
    const ciphertext = framed.slice(4);
    expect(bytesToHex(await decryptChunk(km, 0, ciphertext))).toBe(v.plaintext);
    ciphertext[5]! ^= 0x01;
    await expect(decryptChunk(km, 0, ciphertext)).rejects.toThrow();
  });
});

describe("EHBP with the development enclave", () => {
  let enclave: DevEnclave;
  let relay: TamperingRelay;
  let verified: VerifiedEnclave;
  let chatUrl: string;

  beforeAll(async () => {
    enclave = await startDevEnclave({ port: 0, chunkDelayMs: 0 });
    relay = await startTamperingRelay(enclave.url);
    const document = await (await fetch(`${enclave.url}/.well-known/tinfoil-attestation`)).json();
    verified = await verifyEnclave(document, { trust: "development", enclaveHost: new URL(enclave.url).host, configRepo: "hush/development-enclave" });
    chatUrl = `${relay.url}/v1/chat/completions`;
  });
  afterAll(async () => {
    await relay.close();
    await enclave.close();
  });
  afterEach(() => {
    for (const key of Object.keys(relay.options)) delete relay.options[key as keyof typeof relay.options];
    relay.seen.length = 0;
  });

  function relaySawNoPlaintext() {
    expect(relay.seen.length).toBeGreaterThan(0);
    for (const body of relay.seen) {
      for (const form of [CANARY, Buffer.from(CANARY).toString("base64"), Buffer.from(CANARY).toString("hex")]) {
        expect(body.includes(form)).toBe(false);
      }
      expect(body.includes("You asked")).toBe(false);
    }
  }

  it("round trip, JSON: the answer quotes the message, the relay saw only ciphertext", async () => {
    const { response, authenticated, receipt } = await sendConfidentialRequest(verified, chatUrl, chatBody(false), {
      headers: { "Content-Type": "application/json" },
    });
    expect(authenticated).toBe(true);
    expect(response.status).toBe(200);
    const json = (await response.json()) as { model: string; choices: { message: { content: string } }[]; usage: { total_tokens: number } };
    expect(json.model).toBe("hush-dev-model");
    expect(json.choices[0]!.message.content).toContain(`You asked: “Please repeat ${CANARY}”`);
    expect(json.usage.total_tokens).toBeGreaterThan(0);
    relaySawNoPlaintext();
    // The receipt: sizes the relay could see and the time spent encrypting.
    expect(receipt.requestPlaintextBytes).toBe(Buffer.byteLength(chatBody(false)));
    expect(receipt.requestCiphertextBytes).toBe(relay.seen[0]!.byteLength);
    expect(receipt.requestCiphertextBytes).toBe(receipt.requestPlaintextBytes + 4 + 16);
    expect(receipt.responseCiphertextBytes).toBe(relay.seen[1]!.byteLength);
    expect(receipt.responsePlaintextBytes).toBeGreaterThan(0);
    expect(receipt.encryptMs).toBeGreaterThanOrEqual(0);
    expect(receipt.completeMs).toBeGreaterThanOrEqual(receipt.headersMs!);
    expect(receipt.hpkePublicKey).toBe(enclave.hpkePublicKey);
  });

  it("round trip, streaming (SSE), one encrypted frame per event", async () => {
    const { response, authenticated, receipt } = await sendConfidentialRequest(verified, chatUrl, chatBody(true));
    expect(authenticated).toBe(true);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let reads = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      text += decoder.decode(value, { stream: true });
    }
    expect(reads).toBeGreaterThan(5);
    const { content, done, usage } = sseContent(text);
    expect(done).toBe(true);
    expect(content).toContain(`You asked: “Please repeat ${CANARY}”`);
    expect(usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    relaySawNoPlaintext();
    expect(receipt.responsePlaintextBytes).toBe(Buffer.byteLength(text));
  });

  it("reports usage and the served model outside the ciphertext: header for JSON, trailer for SSE", async () => {
    for (const stream of [false, true]) {
      const identity = await Identity.fromPublicKeyHex(verified.hpkePublicKey);
      const { request } = await identity.encryptRequestWithContext(
        new Request(`${enclave.url}/v1/chat/completions`, { method: "POST", body: chatBody(stream, "hush-pro") }),
      );
      const raw = await rawPost(`${enclave.url}/v1/chat/completions`, request.headers, new Uint8Array(await request.arrayBuffer()), {
        [USAGE_METRICS_REQUEST_HEADER]: "true",
      });
      expect(raw.status).toBe(200);
      const value = stream ? raw.trailers[USAGE_METRICS_HEADER.toLowerCase()] : raw.headers[USAGE_METRICS_HEADER.toLowerCase()];
      const usage = parseUsageMetrics(value as string);
      expect(usage).toMatchObject({ model: "hush-pro", promptTokens: expect.any(Number), completionTokens: expect.any(Number) });
      expect(usage!.totalTokens).toBe(usage!.promptTokens + usage!.completionTokens);
      if (stream) expect(raw.headers[USAGE_METRICS_HEADER.toLowerCase()]).toBeUndefined();
    }
    // Without the request header, no usage is reported.
    const identity = await Identity.fromPublicKeyHex(verified.hpkePublicKey);
    const { request } = await identity.encryptRequestWithContext(new Request(`${enclave.url}/v1/chat/completions`, { method: "POST", body: chatBody(false) }));
    const raw = await rawPost(`${enclave.url}/v1/chat/completions`, request.headers, new Uint8Array(await request.arrayBuffer()), {});
    expect(raw.headers[USAGE_METRICS_HEADER.toLowerCase()]).toBeUndefined();
  });

  it("a changed byte in the request body: the enclave refuses (400), no answer is produced", async () => {
    for (const index of [0, 3, 4, 20, -1]) {
      relay.options.request = (body) => flipByte(body, index);
      const { response, authenticated } = await sendConfidentialRequest(verified, chatUrl, chatBody(false));
      expect(authenticated).toBe(false);
      expect(response.status).toBe(400);
      expect(response.headers.get(PROTOCOL.RESPONSE_NONCE_HEADER)).toBeNull();
      expect(await response.text()).not.toContain("You asked");
    }
  });

  it("a changed encapsulated key or a plaintext request: the enclave refuses (400)", async () => {
    relay.options.requestHeaders = (headers) => {
      const enc = headers.get(PROTOCOL.ENCAPSULATED_KEY_HEADER)!;
      headers.set(PROTOCOL.ENCAPSULATED_KEY_HEADER, (enc[0] === "0" ? "1" : "0") + enc.slice(1));
    };
    const changed = await sendConfidentialRequest(verified, chatUrl, chatBody(false));
    expect(changed.response.status).toBe(400);
    const plain = await fetch(`${enclave.url}/v1/chat/completions`, { method: "POST", body: chatBody(false) });
    expect(plain.status).toBe(400);
    expect(await plain.text()).not.toContain("You asked");
  });

  it("a changed byte in the response body: the client throws while reading (JSON and stream)", async () => {
    for (const [stream, index] of [
      [false, 4],
      [false, -1],
      [true, 10],
      [true, -3],
    ] as const) {
      relay.options.response = (body) => flipByte(body, index);
      const { response } = await sendConfidentialRequest(verified, chatUrl, chatBody(stream));
      expect(await failure(response.text())).toBe("decryption_failed");
    }
  });

  it("a stripped, invalid or changed response nonce: the client refuses", async () => {
    relay.options.responseHeaders = (headers) => headers.delete(PROTOCOL.RESPONSE_NONCE_HEADER);
    expect(await failure(sendConfidentialRequest(verified, chatUrl, chatBody(false)))).toBe("missing_nonce");
    relay.options.responseHeaders = (headers) => headers.set(PROTOCOL.RESPONSE_NONCE_HEADER, "abcd");
    expect(await failure(sendConfidentialRequest(verified, chatUrl, chatBody(false)))).toBe("invalid_nonce");
    relay.options.responseHeaders = (headers) => {
      const nonce = headers.get(PROTOCOL.RESPONSE_NONCE_HEADER)!;
      headers.set(PROTOCOL.RESPONSE_NONCE_HEADER, (nonce[0] === "0" ? "1" : "0") + nonce.slice(1));
    };
    const { response } = await sendConfidentialRequest(verified, chatUrl, chatBody(false));
    expect(await failure(response.text())).toBe("decryption_failed");
  });

  it("a plaintext body substituted on a 2xx answer is refused; a cut-off answer is refused", async () => {
    relay.options.responseHeaders = (headers) => headers.delete(PROTOCOL.RESPONSE_NONCE_HEADER);
    relay.options.response = () => Buffer.from(JSON.stringify({ choices: [{ message: { content: "forged" } }] }));
    expect(await failure(sendConfidentialRequest(verified, chatUrl, chatBody(false)))).toBe("missing_nonce");

    delete relay.options.responseHeaders;
    relay.options.response = (body) => body.subarray(0, body.length - 7);
    const { response } = await sendConfidentialRequest(verified, chatUrl, chatBody(true));
    expect(await failure(response.text())).toBe("truncated");
  });

  it("a non-2xx plaintext answer (the relay's own error) passes through, marked unauthenticated", async () => {
    // The enclave refuses a changed request with a plaintext 400; the relay replaces its body, as an
    // intermediary's error would look. Such a body is diagnostics only, never an answer.
    relay.options.request = (body) => flipByte(body, 10);
    relay.options.response = () => Buffer.from(JSON.stringify({ error: "Daily limit reached" }));
    const { response, authenticated } = await sendConfidentialRequest(verified, chatUrl, chatBody(false));
    expect(authenticated).toBe(false);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Daily limit reached" });
  });

  it("refuses an expired verification and a key that is not X25519", async () => {
    expect(await failure(sendConfidentialRequest({ ...verified, expiresAt: new Date(Date.now() - 1) }, chatUrl, chatBody(false)))).toBe(
      "enclave_expired",
    );
    expect(await failure(sendConfidentialRequest({ ...verified, hpkePublicKey: "00" }, chatUrl, chatBody(false)))).toBe("invalid_key");
    expect(relay.seen).toEqual([]);
  });

  it("the enclave serves its RFC 9458 key config with the attested key", async () => {
    const res = await fetch(`${enclave.url}${PROTOCOL.KEYS_PATH}`);
    expect(res.headers.get("content-type")).toBe(PROTOCOL.KEYS_MEDIA_TYPE);
    const identity = await Identity.unmarshalPublicConfig(new Uint8Array(await res.arrayBuffer()));
    expect(await identity.getPublicKeyHex()).toBe(enclave.hpkePublicKey);
  });
});

describe("usage metrics header", () => {
  it("formats and parses Tinfoil's format, with and without the served model", () => {
    expect(parseUsageMetrics("prompt=67,completion=42,total=109")).toEqual({ promptTokens: 67, completionTokens: 42, totalTokens: 109 });
    expect(parseUsageMetrics("prompt = 1 , completion = 2 , total = 3")).toEqual({ promptTokens: 1, completionTokens: 2, totalTokens: 3 });
    const value = formatUsageMetrics({ promptTokens: 1, completionTokens: 2, totalTokens: 3, model: "llama-3.3-70b" });
    expect(value).toBe("prompt=1,completion=2,total=3,model=llama-3.3-70b");
    expect(parseUsageMetrics(value)).toEqual({ promptTokens: 1, completionTokens: 2, totalTokens: 3, model: "llama-3.3-70b" });
    expect(parseUsageMetrics("prompt=1,completion=x,total=3")).toBeNull();
    expect(parseUsageMetrics(null)).toBeNull();
  });
});

/** POST with node:http to read trailers (fetch does not expose them). */
function rawPost(
  url: string,
  headers: Headers,
  body: Uint8Array,
  extra: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; trailers: NodeJS.Dict<string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { ...Object.fromEntries(headers.entries()), ...extra } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, trailers: res.trailers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
