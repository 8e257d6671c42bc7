import "server-only";
import type { ServerResponse } from "node:http";
import { drained } from "@/lib/server/http";

/**
 * Answers written by a producer (the chat turn's event stream): a handler hands one to its context's
 * `stream` (lib/server/api/route.ts), which on server.mjs's hot path runs it straight into the node:http
 * response (`pushTo`, no promise per chunk, docs/performance.md "Custom server") and under Next into
 * a Web stream read one chunk at a time (`webPushedResponse`).
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

/**
 * The Web Response whose body `produce` writes, with `init`'s status and headers: the producer starts at
 * the first read and writes one chunk per read (back-pressure).
 */
export function webPushedResponse(produce: Producer, init: ResponseInit): Response {
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
    // Nothing is produced ahead of a read.
    { highWaterMark: 0 },
  );
  return new Response(body, init);
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
