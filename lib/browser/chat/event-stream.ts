import type { EventSourceMessage } from "eventsource-parser";

// The parser is fetched with the first answer (or the first key press), not in /chat's first load.
const loadParser = () => import("eventsource-parser");

export function preloadEventStream(): void {
  void loadParser().catch(() => undefined);
}

/** Read a Server-Sent Events body to its end, handing each event to `onEvent`. @throws what reading the body throws */
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

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}
