import "server-only";
import type { ServerResponse } from "node:http";
import { drained, isDirectRequest } from "@/lib/server/http";

/**
 * Bodies that skip the Web streams on the hot path (docs/performance.md "Custom
 * server"), in both directions, while the route handlers keep Next's Web signature:
 *
 * - an answer made by a producer (`pushedResponse`): the handler returns a Response as usual; Next
 *   reads its Web body, which runs the producer into a ReadableStream on the first read, while
 *   server.mjs's hot path (lib/server/hot-path.ts) takes the producer (`takeProducer`) and runs it straight
 *   into the node:http response, without the ReadableStream's promise per chunk;
 * - a request body left on the socket (lib/server/http.ts `directRequest`): the hot path gives the handler a
 *   Request without a Web body, and readJsonBody reads the IncomingMessage itself.
 *
 * - a JSON answer (`jsonResponse`): the hot path writes its text as it is, without a Web body.
 *
 * All are kept in WeakMaps keyed by the Response or Request, so a Response or Request made elsewhere
 * (tests, Next) behaves exactly as a Web one.
 */

/** Where a producer writes: the client's connection, or the Web body Next reads. */
export interface PushSink {
  /** Send `text` (UTF-8). False: the client is not keeping up; await `ready()` before writing more. */
  write(text: string): boolean;
  /** Resolves once more may be written, or once the client is gone (`gone` then aborted). */
  ready(): Promise<void>;
  /** The answer is complete. */
  end(): void;
  /** Aborted when the client stops reading: the producer stops what it is waiting for. */
  readonly gone: AbortSignal;
}

/** Writes an answer into `sink`; must call `sink.end()` once done, and never throws. */
export type Producer = (sink: PushSink) => Promise<void>;

const producers = new WeakMap<Response, Producer>();

/**
 * The answer to `request` whose body `produce` writes, with `init`'s status and headers. Read as a Web
 * stream, the producer starts at the first read and writes one chunk per read (back-pressure); the hot
 * path runs it into the socket instead (`takeProducer`), and for a request it made no Web body is built.
 */
export function pushedResponse(request: Request, produce: Producer, init: ResponseInit): Response {
  if (isDirectRequest(request)) {
    const response = new Response(null, init);
    producers.set(response, produce);
    return response;
  }
  let sink: WebSink | null = null;
  let control: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        control = controller;
      },
      pull() {
        if (!sink) {
          sink = new WebSink(control);
          void produce(sink);
        } else sink.pulled();
      },
      cancel() {
        if (sink) sink.cancel();
        else {
          // Never read: the producer still runs, to its end at once, so what it holds (a model call, a
          // turn in flight) is let go.
          sink = new WebSink(control);
          sink.cancel();
          void produce(sink);
        }
      },
    },
    // Nothing is produced ahead of a read: a Response the hot path takes never starts its Web body.
    { highWaterMark: 0 },
  );
  const response = new Response(body, init);
  producers.set(response, produce);
  return response;
}

const texts = new WeakMap<Response, string>();

/**
 * A JSON answer to `request` whose body is `json` (text), with `init`'s status and headers and
 * Content-Type application/json. For a hot-path request the text is kept for the hot path to write in
 * one go (`takeText`) and no Web body is made; otherwise an ordinary Response.
 */
export function jsonResponse(request: Request, json: string, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  if (!isDirectRequest(request)) return new Response(json, { ...init, headers });
  const response = new Response(null, { ...init, headers });
  texts.set(response, json);
  return response;
}

/** The text of a Response made by `jsonResponse` for a hot-path request, once. */
export function takeText(response: Response): string | undefined {
  const text = texts.get(response);
  texts.delete(response);
  return text;
}

/** The producer of a Response made by `pushedResponse`, once (its Web body must then not be read). */
export function takeProducer(response: Response): Producer | undefined {
  const produce = producers.get(response);
  producers.delete(response);
  return produce;
}

/**
 * Run `produce` into `res` (whose status and headers are written), its writes corked per event-loop turn
 * (`corkedWriter`). `gone`: the client went away.
 */
export async function pushTo(produce: Producer, res: ServerResponse, gone: AbortSignal): Promise<void> {
  const write = corkedWriter(res);
  await produce({
    write: (text) => (gone.aborted ? true : write(text)),
    ready: () => (gone.aborted ? Promise.resolve() : drained(res)),
    end() {
      if (!gone.aborted) res.end();
    },
    gone,
  });
}

/**
 * `res.write` where the writes of one event-loop turn leave in one socket write: corked at the first,
 * uncorked once the turn's microtasks are through (a write syscall was the largest single cost of a
 * turn in bench/perf's CPU profile). Returns `res.write`'s answer (false: wait for `drain`).
 */
export function corkedWriter(res: ServerResponse): (chunk: string | Uint8Array) => boolean {
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  return (chunk) => {
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    return res.write(chunk);
  };
}

/** A producer's sink over a Web stream read one chunk at a time. */
class WebSink implements PushSink {
  private readonly encoder = new TextEncoder();
  private readonly stop = new AbortController();
  private wake: (() => void) | null = null;
  private room = true;
  readonly gone = this.stop.signal;

  constructor(private readonly controller: ReadableStreamDefaultController<Uint8Array>) {}

  write(text: string): boolean {
    if (this.gone.aborted) return true;
    this.controller.enqueue(this.encoder.encode(text));
    // One chunk per read: the next waits for the reader's next pull.
    this.room = false;
    return false;
  }

  ready(): Promise<void> {
    if (this.room || this.gone.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  end(): void {
    if (this.gone.aborted) return;
    try {
      this.controller.close();
    } catch {
      // Already cancelled.
    }
  }

  pulled(): void {
    this.room = true;
    this.wake?.();
    this.wake = null;
  }

  cancel(): void {
    this.stop.abort();
    this.wake?.();
    this.wake = null;
  }
}
