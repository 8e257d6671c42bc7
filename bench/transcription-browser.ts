/**
 * Browser entry of bench/transcription.ts (bundled by esbuild, loaded in the benchmark's Chromium): the reference
 * uploads, timed in the page with performance.now() from a Blob of the recording's bytes already in hand to the
 * transcript's text parsed. Exposed as `window.transcriptionBench`.
 * - `bareStandard`: the recording as the multipart `file` straight to the fake provider's Groq transcription API, with
 *   the fields groq-sdk sends (what Hush's server does for a standard model, without Hush).
 * - `bareConfidential`: the same multipart request Hush's page builds (lib/browser/voice/confidential.ts), EHBP-encrypted
 *   with the ehbp library Hush's client wraps (lib/browser/confidential/ehbp-client.ts, which sends only to its own
 *   origin) to the key of an enclave verified beforehand, posted straight to the enclave's /v1/audio/transcriptions (no
 *   relay) and the sealed answer opened.
 */
import { Identity } from "ehbp";
import { verifyEnclave, type VerifiedEnclave } from "../lib/browser/confidential/attestation";
import { ENCLAVE_TRANSCRIPTION_MODEL } from "../lib/shared/confidential/protocol";

function blobOf(base64: string, type: string): Blob {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

let enclave: VerifiedEnclave | null = null;

const bench = {
  /** Verify the development enclave's `document` as the page does (development trust), for `bareConfidential`. */
  async verify(document: unknown, enclaveHost: string): Promise<void> {
    enclave = await verifyEnclave(document, { trust: "development", enclaveHost, configRepo: "" });
  },

  /** Milliseconds of each of `runs` uploads of the recording to `url` (the fake's Groq path), and the last text. */
  async bareStandard(base64: string, type: string, url: string, runs: number): Promise<{ ms: number[]; text: string }> {
    const blob = blobOf(base64, type);
    const ms: number[] = [];
    let text = "";
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const form = new FormData();
      form.set("file", blob, "recording.webm");
      form.set("model", "whisper-large-v3-turbo");
      form.set("response_format", "verbose_json");
      const response = await fetch(url, { method: "POST", body: form });
      text = ((await response.json()) as { text: string }).text;
      ms.push(performance.now() - started);
      if (!response.ok) throw new Error(`bare upload ${response.status}`);
    }
    return { ms, text };
  },

  /** Milliseconds of each of `runs` EHBP uploads of the recording straight to the enclave at `url`, and the last text. */
  async bareConfidential(base64: string, type: string, url: string, runs: number): Promise<{ ms: number[]; text: string }> {
    if (!enclave) throw new Error("verify first");
    const blob = blobOf(base64, type);
    const ms: number[] = [];
    let text = "";
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const form = new FormData();
      form.set("file", blob, "recording.webm");
      form.set("model", ENCLAVE_TRANSCRIPTION_MODEL);
      form.set("response_format", "json");
      const request = new Request("https://multipart.invalid/", { method: "POST", body: form });
      const body = new Uint8Array(await request.arrayBuffer());
      const identity = await Identity.fromPublicKeyHex(enclave.hpkePublicKey);
      const headers = { "Content-Type": request.headers.get("content-type")!, Accept: "application/json", Authorization: "Bearer bench-enclave-key" };
      const sealed = await identity.encryptRequestWithContext(new Request(url, { method: "POST", headers, body }));
      if (!sealed.context) throw new Error("not encrypted");
      const ciphertext = new Uint8Array(await sealed.request.arrayBuffer());
      const answer = await fetch(url, { method: "POST", headers: sealed.request.headers, body: ciphertext });
      if (!answer.ok) throw new Error(`bare EHBP upload ${answer.status}`);
      const response = await identity.decryptResponseWithContext(answer, sealed.context);
      text = ((await response.json()) as { text: string }).text;
      ms.push(performance.now() - started);
    }
    return { ms, text };
  },
};

(window as unknown as { transcriptionBench: typeof bench }).transcriptionBench = bench;
