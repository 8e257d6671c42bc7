/**
 * The confidential relay's side of bench/perf/run.ts (docs/issues.md #24): POST /api/confidential/chat of
 * an app instance configured with CONFIDENTIAL_* (development trust) against bench/perf/bare-proxy.mjs
 * --bytes, both in front of the same development enclave (bench/perf/enclave.ts: no chunk pause).
 *
 * Requests are real EHBP ciphertext, made as the browser makes them: the enclave verified through the
 * app's GET /api/confidential/attestation (lib/browser/confidential/attestation.ts), then each body encrypted with
 * the `ehbp` library's `Identity.encryptRequestWithContext`, as lib/browser/confidential/ehbp-client.ts does. A pool
 * of them is made ahead and reused in turn (the enclave opens each one afresh: HPKE setup per request), so
 * the client's encryption is off the clock, as the sealing of chat_save bodies is. The timed client reads
 * the framed answer (4-byte length, then the sealed chunk) without decrypting it: the first token is the
 * second complete frame (the first is the role chunk), a turn is ok when the answer is 200, carries the
 * response nonce and ends on a frame boundary. Before timing, `checkConfidential` sends turns through both
 * paths with ehbp-client's `sendConfidentialRequest` and checks the decrypted answer.
 */
import http from "node:http";
import { agent, type Job, type Outcome } from "./client";
import { MODEL } from "./setup";

/** One encrypted request: its clear headers (EHBP key, Content-Type…) and framed ciphertext. */
interface Sealed {
  headers: Record<string, string>;
  body: Buffer;
}

/** The enclave's HPKE key, verified (development trust) from the attestation the app relays. */
async function verifiedEnclave(appPort: number, enclavePort: number) {
  const { verifyEnclave } = await import("@/lib/browser/confidential/attestation");
  const document = await (await fetch(`http://127.0.0.1:${appPort}/api/confidential/attestation`)).json();
  return verifyEnclave(document, { trust: "development", enclaveHost: `127.0.0.1:${enclavePort}`, configRepo: "" });
}

/** The chat request the browser encrypts for the enclave (OpenAI-compatible, streamed). */
const plainRequest = JSON.stringify({
  model: "hush-dev-basic",
  messages: [{ role: "user", content: "How fast can a private chat be?" }],
  stream: true,
});

/**
 * `n` encrypted requests to the enclave verified through the app on `appPort`.
 * @throws when the attestation does not verify
 */
export async function sealedRequests(appPort: number, enclavePort: number, n: number): Promise<Sealed[]> {
  const { Identity } = await import("ehbp");
  const enclave = await verifiedEnclave(appPort, enclavePort);
  const identity = await Identity.fromPublicKeyHex(enclave.hpkePublicKey);
  const out: Sealed[] = [];
  for (let i = 0; i < n; i++) {
    const { request } = await identity.encryptRequestWithContext(
      new Request(`http://127.0.0.1:${appPort}/api/confidential/chat`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: plainRequest,
      }),
    );
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    out.push({ headers, body: Buffer.from(await request.arrayBuffer()) });
  }
  return out;
}

/** Send one sealed request to `port` `path` and read the framed answer (see the file's comment). */
function sendSealed(port: number, path: string, extra: Record<string, string>, s: Sealed): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers = { ...s.headers, ...extra, "content-length": String(s.body.byteLength) };
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path, headers, agent }, (res) => {
      let frames = 0;
      let pending: Buffer = Buffer.alloc(0);
      let firstMs = NaN;
      res.on("data", (d: Buffer) => {
        pending = pending.byteLength ? Buffer.concat([pending, d]) : d;
        while (pending.byteLength >= 4 && pending.byteLength >= 4 + pending.readUInt32BE(0)) {
          pending = pending.subarray(4 + pending.readUInt32BE(0));
          frames++;
          if (frames === 2) firstMs = performance.now() - t0;
        }
      });
      res.on("end", () => {
        const ok = res.statusCode === 200 && typeof res.headers["ehbp-response-nonce"] === "string" && frames > 2 && pending.byteLength === 0;
        resolve({ ok, firstMs, totalMs: performance.now() - t0 });
      });
      res.on("error", () => resolve({ ok: false, firstMs, totalMs: performance.now() - t0 }));
    });
    req.on("error", () => resolve({ ok: false, firstMs: NaN, totalMs: performance.now() - t0 }));
    req.end(s.body);
  });
}

/**
 * A visitor's confidential turn: POST /api/confidential/chat on `appPort` (same-origin, the public model
 * code in X-Hush-Model), or, with `bare`, POST /chat on the bare proxy; the pool's requests in turn.
 */
export function confidentialTurn(port: number, pool: Sealed[], bare: boolean): Job {
  let next = 0;
  const extra: Record<string, string> = bare ? {} : { "x-hush-model": MODEL, origin: `http://127.0.0.1:${port}` };
  return {
    name: bare ? "EHBP bytes → enclave" : "/api/confidential/chat",
    port,
    run: () => sendSealed(port, bare ? "/chat" : "/api/confidential/chat", extra, pool[next++ % pool.length]!),
  };
}

/**
 * Sends `n` turns through the relay on `appPort` and the bare proxy on `barePort` with the browser's
 * client (lib/browser/confidential/ehbp-client.ts: encrypt, POST, decrypt the stream) and checks each decrypted
 * answer carries the enclave's text. @throws on the first failure
 */
export async function checkConfidential(appPort: number, barePort: number, enclavePort: number, n = 3): Promise<void> {
  const { sendConfidentialRequest } = await import("@/lib/browser/confidential/ehbp-client");
  const enclave = await verifiedEnclave(appPort, enclavePort);
  const targets: { url: string; headers: Record<string, string> }[] = [
    { url: `http://127.0.0.1:${appPort}/api/confidential/chat`, headers: { "X-Hush-Model": MODEL, Origin: `http://127.0.0.1:${appPort}` } },
    { url: `http://127.0.0.1:${barePort}/chat`, headers: {} },
  ];
  for (const t of targets) {
    for (let i = 0; i < n; i++) {
      const { response, authenticated } = await sendConfidentialRequest(enclave, t.url, plainRequest, {
        headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...t.headers },
      });
      const text = await response.text();
      if (!authenticated || response.status !== 200 || !text.includes('"Hello tok tok') || !text.includes("[DONE]")) {
        throw new Error(`confidential turn through ${t.url} failed: ${response.status} ${text.slice(0, 200)}`);
      }
    }
  }
}
