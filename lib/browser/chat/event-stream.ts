import type { EventSourceMessage } from "eventsource-parser";

// The parser is fetched with the first answer (or at the first key press, preloadEventStream), not in
// /chat's first load (docs/issues.md #42).
const loadParser = () => import("eventsource-parser");

/** Start fetching the stream parser before the first answer needs it. */
export function preloadEventStream(): void {
  void loadParser().catch(() => undefined);
}

/**
 * Read a Server-Sent Events body to its end, handing each event to `onEvent` (eventsource-parser): the
 * one reading loop of the chat's two streams, Hush's own (`delta`/`done`/`error`, lib/browser/chat/send-turn.ts)
 * and the enclave's decrypted OpenAI chunks (lib/browser/confidential/turn.ts).
 * @throws whatever reading the body throws (an AbortError when the send was stopped, a network or
 *   decryption failure), for the caller to map.
 */
export async function readEventStream(body: ReadableStream<Uint8Array<ArrayBuffer>>, onEvent: (event: EventSourceMessage) => void): Promise<void> {
  const { createParser } = await loadParser();
  const parser = createParser({ onEvent });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}

/** True for the DOMException a fetch or stream read throws when its AbortSignal fired. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}
