import "server-only";
import type { ServerResponse } from "node:http";
import { drained } from "@/lib/server/http";

// A producer writes an answer straight into the socket on the hot path, or into a Web stream under Next.

export interface PushSink {
  /** False: the client is not keeping up; await `ready()`. */
  write(text: string): boolean;
  ready(): Promise<void>;
  end(): void;
  readonly gone: AbortSignal;
}

/** Must call `sink.end()` once done, and never throws. */
export type Producer = (sink: PushSink) => Promise<void>;

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
          // Never read: the producer still runs, so what it holds is let go.
          sink = new WebSink(control);
          sink.cancel();
          void produce(sink);
        }
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, init);
}

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

/** `res.write` where one event-loop turn's writes leave in one socket write. */
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
