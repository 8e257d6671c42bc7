import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { enclaveVerificationCache } from "@/lib/browser/confidential/attestation";
import { startDevEnclave, type DevEnclave } from "@/dev/enclave";
import type { ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";
import { latestReceipt } from "@/lib/browser/confidential/receipt-store";
import { ENCLAVE_UNVERIFIED, VERIFICATION_FAILED_MESSAGE, sendConfidentialTurn } from "@/lib/browser/confidential/turn";
import { SYSTEM_PROMPT } from "@/lib/shared/llm/prompt";
import { startTamperingRelay, type TamperingRelay } from "./helpers";

/**
 * The browser side of a confidential turn (lib/browser/confidential/turn.ts) against the development enclave behind
 * a relay that records what crossed it: the canary comes back in the answer and never crosses the relay in
 * clear; a tampered enclave is refused before anything is sent.
 */
let enclave: DevEnclave;
let tampered: DevEnclave;
let relay: TamperingRelay;
let tamperedRelay: TamperingRelay;

function configFor(target: DevEnclave, through: TamperingRelay): ConfidentialPublicConfig {
  return {
    models: ["llama3-8b-8192"],
    enclaveModels: { "llama3-8b-8192": "dev-basic" },
    trust: "development",
    enclaveHost: new URL(target.url).host,
    configRepo: null,
    contextTokens: { "llama3-8b-8192": 32_000 },
    paths: { attestation: `${through.url}/.well-known/tinfoil-attestation`, chat: `${through.url}/v1/chat/completions` },
    modelHeader: "X-Hush-Model",
  } as unknown as ConfidentialPublicConfig;
}

beforeAll(async () => {
  enclave = await startDevEnclave({ port: 0, chunkDelayMs: 0 });
  tampered = await startDevEnclave({ port: 0, tamper: true, chunkDelayMs: 0 });
  relay = await startTamperingRelay(enclave.url);
  tamperedRelay = await startTamperingRelay(tampered.url);
});

afterAll(async () => {
  await Promise.all([relay.close(), tamperedRelay.close(), enclave.close(), tampered.close()]);
});

beforeEach(() => {
  enclaveVerificationCache.clear();
  relay.seen.length = 0;
  tamperedRelay.seen.length = 0;
});

const input = (text: string, deltas: string[] = []) => ({
  endpoint: "chatVisitor" as const,
  messages: [{ role: "user" as const, content: text }],
  model: "llama3-8b-8192",
  file: null,
  documents: [{ name: "notes.pdf", text: "DOCCANARY inside the document" }],
  chatId: "chat-123",
  saveChat: true,
  signal: new AbortController().signal,
  onDelta: (d: string) => deltas.push(d),
});

describe("sendConfidentialTurn", () => {
  it("streams the enclave's answer, returns sendChat's shape plus the receipt, and the relay sees only ciphertext", async () => {
    const deltas: string[] = [];
    const result = await sendConfidentialTurn(input("quote MSGCANARY please", deltas), configFor(enclave, relay));
    const answer = result.messages.at(-1)!;
    expect(answer.role).toBe("assistant");
    expect(answer.content).toContain("MSGCANARY");
    expect(answer.content).toContain("notes.pdf");
    expect(deltas.join("")).toBe(answer.content);
    expect(result.chat_id).toBe("chat-123");
    expect(result.context).toEqual({ omitted_messages: 0, omitted_documents: 0, latest_message_cut: false });
    expect(result.receipt.enclave.trust).toBe("development");
    expect(result.receipt.transport.requestCiphertextBytes).toBeGreaterThan(result.receipt.transport.requestPlaintextBytes);
    expect(result.receipt.transport.responseCiphertextBytes).toBeGreaterThan(0);
    expect(result.receipt.cached).toBe(false);
    expect(latestReceipt()).toBe(result.receipt);

    const crossed = Buffer.concat(relay.seen).toString("latin1");
    for (const secret of ["MSGCANARY", "DOCCANARY", SYSTEM_PROMPT.slice(0, 30), "chat-123"]) {
      expect(crossed).not.toContain(secret);
      expect(crossed).not.toContain(Buffer.from(secret).toString("base64").slice(0, 8));
      expect(crossed).not.toContain(Buffer.from(secret).toString("hex"));
    }
  });

  it("reuses the verification within its validity (no attestation fetched for the second turn)", async () => {
    const config = configFor(enclave, relay);
    await sendConfidentialTurn(input("first"), config);
    const second = await sendConfidentialTurn(input("second"), config);
    expect(second.receipt.cached).toBe(true);
  });

  it("fits the context with the model's budget from the public config", async () => {
    const config = { ...configFor(enclave, relay), contextTokens: { "llama3-8b-8192": 600 } } as ConfidentialPublicConfig;
    const result = await sendConfidentialTurn(input("short question"), config);
    expect(result.context.omitted_documents).toBe(0);
    const long = { ...input("x".repeat(10_000)) };
    const cut = await sendConfidentialTurn(long, config);
    expect(cut.context.latest_message_cut).toBe(true);
    expect(cut.context.omitted_documents).toBe(1);
  });

  it("refuses a tampered enclave before anything is sent", async () => {
    await expect(sendConfidentialTurn(input("never sent TAMPERCANARY"), configFor(tampered, tamperedRelay))).rejects.toMatchObject({
      code: ENCLAVE_UNVERIFIED,
      reason: "measurement",
      message: VERIFICATION_FAILED_MESSAGE,
    });
    // Only the attestation exchange crossed (the empty GET and the document): no chat request was made.
    expect(tamperedRelay.seen).toHaveLength(2);
    expect(tamperedRelay.seen[0]!.byteLength).toBe(0);
    await expect(sendConfidentialTurn(input("x"), configFor(tampered, tamperedRelay))).rejects.toThrow(/verify/);
  });

  it("sends this turn's PDF text (read in the browser) encrypted to the enclave, never in clear", async () => {
    relay.seen.length = 0;
    const withFile = { ...input("what does it say?"), documents: [], file: { name: "canary.pdf", text: "PDFCANARY opens this document.", truncated: false, notice: null } };
    const result = await sendConfidentialTurn(withFile, configFor(enclave, relay));
    const answer = result.messages.at(-1)!.content;
    expect(answer).toContain("canary.pdf");
    expect(answer).toContain("PDFCANARY");
    const crossed = Buffer.concat(relay.seen).toString("latin1");
    expect(crossed).not.toContain("PDFCANARY");
    expect(crossed).not.toContain(Buffer.from("PDFCANARY").toString("base64").slice(0, 8));
    expect(crossed).not.toContain(Buffer.from("PDFCANARY").toString("hex"));
  });
});
