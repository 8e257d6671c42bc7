/**
 * The development enclave: a NOT isolated stand-in for a Tinfoil enclave, attested by the published development
 * root (only `trust: "development"` accepts it), serving EHBP-sealed chat and transcription (EHBP SPEC.md §4–5).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { CipherSuite, type Key, type RecipientContext } from "hpke";
import { AEAD_AES_256_GCM, KDF_HKDF_SHA256, KEM_DHKEM_X25519_HKDF_SHA256 } from "@panva/hpke-noble";
import {
  EXPORT_LABEL,
  EXPORT_LENGTH,
  HPKE_REQUEST_INFO,
  Identity,
  PROTOCOL,
  RESPONSE_NONCE_LENGTH,
  bytesToHex,
  deriveResponseKeys,
  encryptChunk,
  hexToBytes,
  type ResponseKeyMaterial,
} from "ehbp";
import { CompactSign, importJWK, type JWK } from "jose";
import { z } from "@/lib/shared/zod";
import { developmentAnswer } from "../lib/server/llm/development";
import { wantsEvents } from "./enclave-search";
import { readBody, sendJson } from "./http-helpers";
import { chatRequestSchema, MAX_REQUEST_BYTES, openCompletion } from "./enclave-completion";
import { scriptedModel, upstreamModel, type EnclaveUpstream } from "./enclave-models";
import { runEnclaveTurn } from "./enclave-tools";
import { sha256Hex, type DevelopmentAttestationDocument, type DevelopmentReport, type EnclaveMeasurement } from "../lib/browser/confidential/attestation";
import {
  DEVELOPMENT_FORMAT,
  DEVELOPMENT_JWS_TYPE,
  DEVELOPMENT_MEASUREMENT,
  DEVELOPMENT_RELEASE,
  DEVELOPMENT_ROOT_KEY_ID,
} from "../lib/browser/confidential/development-root";
import { DEVELOPMENT_ROOT_PRIVATE_JWK } from "./development-root-private";
import { USAGE_METRICS_REQUEST_HEADER } from "../lib/server/confidential/usage-metrics";

/** There is no speech model here, and it says so. */
export function developmentTranscript(bytes: number): string {
  return `(The development enclave has no speech model, so this stands in for your words: it received ${bytes} bytes of encrypted audio and kept none.)`;
}

export const DEFAULT_ENCLAVE_PORT = 8788;
export const DEVELOPMENT_VALIDITY_SECONDS = 60 * 60;
export const TAMPERED_MEASUREMENT: EnclaveMeasurement = {
  type: DEVELOPMENT_FORMAT,
  registers: ["bd347e2c240683573da7a1f3ee25e71cdc7cb36dc81e04fad9a936d70cf6dacdacef825439fc81988e65c86011d1c6fe"],
};


export interface DevEnclaveOptions {
  /** 0 picks a free one. Default 8788. */
  port?: number;
  listenHost?: string;
  /** Serve a different measurement: verification must refuse it. */
  tamper?: boolean;
  /** Answer `POST /__test/tamper` (`on`/`off`) by switching `tamper`, and `POST /__test/transcript` (a text every
   * sealed transcription answers; empty: the stand-in again). */
  testControls?: boolean;
  chunkDelayMs?: number;
  validitySeconds?: number;
  answer?: (messages: readonly { role: string; content: string }[]) => string;
  searxngUrl?: string | null;
  /** Absent: `answer`. */
  upstream?: EnclaveUpstream | null;
}

export interface DevEnclave {
  url: string;
  port: number;
  hpkePublicKey: string;
  attestation(enclaveHost: string): Promise<DevelopmentAttestationDocument>;
  close(): Promise<void>;
}

function createSuite(): CipherSuite {
  return new CipherSuite(KEM_DHKEM_X25519_HKDF_SHA256, KDF_HKDF_SHA256, AEAD_AES_256_GCM);
}

export interface DevelopmentAttestationOptions {
  hpkePublicKey: string;
  enclaveHost: string;
  issuedAt?: Date;
  validitySeconds?: number;
  measurement?: EnclaveMeasurement;
  signingJwk?: JWK;
  reportData?: string;
}

/** ES256 JWS, as served at `/.well-known/tinfoil-attestation`. */
export async function createDevelopmentAttestation(options: DevelopmentAttestationOptions): Promise<DevelopmentAttestationDocument> {
  const iat = Math.floor((options.issuedAt ?? new Date()).getTime() / 1000);
  const report: DevelopmentReport = {
    iss: "hush-development-enclave",
    iat,
    exp: iat + (options.validitySeconds ?? DEVELOPMENT_VALIDITY_SECONDS),
    domain: options.enclaveHost,
    measurement: structuredClone(options.measurement ?? { type: DEVELOPMENT_MEASUREMENT.type, registers: [...DEVELOPMENT_MEASUREMENT.registers] }),
    report_data: options.reportData ?? (await sha256Hex(hexToBytes(options.hpkePublicKey))),
    release: { ...DEVELOPMENT_RELEASE },
  };
  const key = await importJWK(options.signingJwk ?? { ...DEVELOPMENT_ROOT_PRIVATE_JWK }, "ES256");
  const body = await new CompactSign(new TextEncoder().encode(JSON.stringify(report)))
    .setProtectedHeader({ alg: "ES256", typ: DEVELOPMENT_JWS_TYPE, kid: DEVELOPMENT_ROOT_KEY_ID })
    .sign(key);
  return { format: DEVELOPMENT_FORMAT, body, hpkePublicKey: options.hpkePublicKey };
}


/** @throws the listen error (e.g. EADDRINUSE) */
export async function startDevEnclave(options: DevEnclaveOptions = {}): Promise<DevEnclave> {
  const suite = createSuite();
  const keyPair = await suite.GenerateKeyPair(false);
  const hpkePublicKey = bytesToHex(await suite.SerializePublicKey(keyPair.publicKey));
  const keyConfig = await new Identity(suite, keyPair.publicKey, keyPair.privateKey).marshalConfig();
  const validitySeconds = options.validitySeconds ?? DEVELOPMENT_VALIDITY_SECONDS;
  const chunkDelayMs = options.chunkDelayMs ?? 15;
  let tampered = options.tamper ?? false;
  let testTranscript: string | null = null;

  const documents = new Map<string, { doc: DevelopmentAttestationDocument; issuedAt: number }>();
  const attestation = async (enclaveHost: string) => {
    const measurement = tampered ? TAMPERED_MEASUREMENT : undefined;
    const cached = documents.get(`${tampered} ${enclaveHost}`);
    // Re-sign at half the validity, so a relayed document always has time left.
    if (cached && Date.now() - cached.issuedAt < (validitySeconds * 1000) / 2) return cached.doc;
    const issuedAt = Date.now();
    const doc = await createDevelopmentAttestation({ hpkePublicKey, enclaveHost, issuedAt: new Date(issuedAt), validitySeconds, measurement });
    documents.set(`${tampered} ${enclaveHost}`, { doc, issuedAt });
    return doc;
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: "Internal error" });
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?", 1)[0];
    if (req.method === "GET" && path === "/.well-known/tinfoil-attestation") {
      const host = req.headers.host ?? "";
      if (!/^[A-Za-z0-9.:[\]-]{1,260}$/.test(host)) return sendJson(res, 400, { error: "Bad Host header" });
      return sendJson(res, 200, await attestation(host));
    }
    if (req.method === "GET" && path === PROTOCOL.KEYS_PATH) {
      res.writeHead(200, { "Content-Type": PROTOCOL.KEYS_MEDIA_TYPE, "Cache-Control": "no-store" });
      return void res.end(Buffer.from(keyConfig));
    }
    if (req.method === "POST" && path === "/v1/chat/completions") return chat(req, res);
    if (req.method === "POST" && path === "/v1/audio/transcriptions") return transcription(req, res);
    if (options.testControls && req.method === "POST" && path === "/__test/tamper") {
      const value = new TextDecoder().decode(await readBody(req, 16)).trim();
      if (value !== "on" && value !== "off") return sendJson(res, 400, { error: "Send on or off" });
      tampered = value === "on";
      return sendJson(res, 200, { tampered });
    }
    if (options.testControls && req.method === "POST" && path === "/__test/transcript") {
      const value = new TextDecoder().decode(await readBody(req, 4096)).trim();
      testTranscript = value === "" ? null : value;
      return sendJson(res, 200, { ok: true });
    }
    sendJson(res, 404, { error: "Not found" });
  }

  /** Null once a 400 was answered (one shape for every crypto failure: EHBP SPEC.md §5.4.4). */
  async function openSealed(req: http.IncomingMessage, res: http.ServerResponse) {
    const encHex = req.headers[PROTOCOL.ENCAPSULATED_KEY_HEADER.toLowerCase()];
    if (typeof encHex !== "string" || !/^[0-9a-f]{64}$/.test(encHex)) {
      req.resume();
      sendJson(res, 400, { error: "This enclave accepts EHBP-encrypted requests only" });
      return null;
    }
    let body: Uint8Array;
    try {
      body = await readBody(req, MAX_REQUEST_BYTES);
    } catch {
      sendJson(res, 413, { error: "Request too large" });
      return null;
    }
    const enc = hexToBytes(encHex);
    let context: RecipientContext;
    let plaintext: Uint8Array;
    try {
      context = await suite.SetupRecipient(keyPair.privateKey as Key, enc, { info: new TextEncoder().encode(HPKE_REQUEST_INFO) });
      plaintext = await openFrames(context, body);
    } catch {
      sendJson(res, 400, { error: "The request could not be decrypted" });
      return null;
    }
    const nonce = crypto.getRandomValues(new Uint8Array(RESPONSE_NONCE_LENGTH));
    const keys = await deriveResponseKeys(await context.Export(new TextEncoder().encode(EXPORT_LABEL), EXPORT_LENGTH), enc, nonce);
    return { plaintext, nonce, sealer: frameSealer(keys) };
  }

  async function chat(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const opened = await openSealed(req, res);
    if (!opened) return;
    const { plaintext, nonce, sealer } = opened;
    const wantsUsage = req.headers[USAGE_METRICS_REQUEST_HEADER.toLowerCase()] === "true";

    let request: z.infer<typeof chatRequestSchema>;
    try {
      const parsed = chatRequestSchema.safeParse(JSON.parse(new TextDecoder().decode(plaintext)));
      if (!parsed.success) throw new Error("invalid chat completion request");
      request = parsed.data;
    } catch {
      // The receiver context exists, so the error is encrypted too (EHBP SPEC.md §5.2).
      res.writeHead(400, { "Content-Type": "application/json", [PROTOCOL.RESPONSE_NONCE_HEADER]: bytesToHex(nonce) });
      res.end(await sealer(JSON.stringify({ error: { message: "Invalid chat completion request", type: "invalid_request_error" } })));
      return;
    }

    const writer = openCompletion(res, { request, sealer, nonce, wantsUsage });
    await runEnclaveTurn({
      request,
      writer,
      model: options.upstream ? upstreamModel(options.upstream, request) : scriptedModel(options.answer ?? developmentAnswer, chunkDelayMs),
      search:
        request.web_search_options === undefined
          ? null
          : { searxngUrl: options.searxngUrl ?? null, piiCheck: request.pii_check_options !== undefined, events: wantsEvents(req) },
    });
  }

  async function transcription(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const opened = await openSealed(req, res);
    if (!opened) return;
    const { plaintext, nonce, sealer } = opened;
    const answer = async (status: number, json: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json", [PROTOCOL.RESPONSE_NONCE_HEADER]: bytesToHex(nonce) });
      res.end(await sealer(JSON.stringify(json)));
    };
    let file: FormDataEntryValue | null = null;
    try {
      const form = await new Response(plaintext as Uint8Array<ArrayBuffer>, { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
      file = form.get("file");
    } catch {
    }
    if (!(file instanceof Blob)) return answer(400, { error: { message: "Send the audio as the multipart file field", type: "invalid_request_error" } });
    return answer(200, { text: testTranscript ?? developmentTranscript(file.size) });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_ENCLAVE_PORT, options.listenHost ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${hostForUrl}:${address.port}`,
    port: address.port,
    hpkePublicKey,
    attestation,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** @throws on framing or AEAD failure */
async function openFrames(context: RecipientContext, body: Uint8Array): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let offset = 0;
  while (offset < body.byteLength) {
    if (body.byteLength - offset < 4) throw new Error("partial length prefix");
    const length = new DataView(body.buffer, body.byteOffset + offset, 4).getUint32(0, false);
    offset += 4;
    if (length === 0) continue;
    if (body.byteLength - offset < length) throw new Error("partial frame");
    parts.push(await context.Open(body.subarray(offset, offset + length)));
    offset += length;
  }
  if (parts.length === 0) throw new Error("empty body");
  return Buffer.concat(parts);
}

function frameSealer(keys: ResponseKeyMaterial): (text: string) => Promise<Buffer> {
  let seq = 0;
  return async (text) => {
    const sealed = await encryptChunk(keys, seq++, new TextEncoder().encode(text));
    const frame = Buffer.alloc(4 + sealed.byteLength);
    frame.writeUInt32BE(sealed.byteLength, 0);
    frame.set(sealed, 4);
    return frame;
  };
}

