import "server-only";
import type http from "node:http";
import { getConfig } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";

const KEY_CONFIG_PROBLEM_TYPE = "urn:ietf:params:ehbp:error:key-config";
const PROBLEM_JSON = "application/problem+json";

const KEY_CONFIG_MESSAGE = "The secure enclave no longer uses the key this browser verified. Reload the page and send again.";
const ENCLAVE_ERROR_MESSAGE = "The secure enclave answered with an error. Please try again in a moment.";

/** The answer instead of the enclave's for a non-2xx (null for 2xx); the enclave's body and Location never pass. */
export function upstreamRefusal(status: number, headers: http.IncomingHttpHeaders): AppError | Response | null {
  if (status >= 200 && status < 300) return null;
  if (status === 401 || status === 403 || status === 407) {
    logger("confidential").error({ status }, "enclave refused the relay's credentials");
    return new AppError("upstream:enclave", "The secure enclave refused this server's credentials. Please try again later.");
  }
  if (status === 429) {
    const retryAfter = headers["retry-after"];
    const seconds = retryAfter && /^\d{1,6}$/.test(retryAfter) ? retryAfter : "5";
    return new AppError("unavailable:enclave", "The secure enclave is busy. Please try again in a moment.", { headers: { "Retry-After": seconds } });
  }
  if (status === 422 && (headers["content-type"] ?? "").split(";", 1)[0]!.trim().toLowerCase() === PROBLEM_JSON) {
    const body = JSON.stringify({ type: KEY_CONFIG_PROBLEM_TYPE, title: "key configuration mismatch", error: KEY_CONFIG_MESSAGE });
    return new Response(body, { status: 422, headers: { "Content-Type": PROBLEM_JSON, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
  }
  logger("confidential").error({ status }, "enclave answered with an error status");
  return new AppError("upstream:enclave", ENCLAVE_ERROR_MESSAGE);
}

/** The enclave's body under the idle and total deadlines; past either it errors like a dropped connection. */
export function answerWithDeadlines(response: http.IncomingMessage): ReadableStream<Uint8Array> {
  const { CONFIDENTIAL_IDLE_TIMEOUT_MS: idleMs, CONFIDENTIAL_STREAM_TIMEOUT_MS: totalMs } = getConfig();
  let idle: NodeJS.Timeout | undefined;
  let total: NodeJS.Timeout | undefined;
  let done = false;
  const stop = () => {
    done = true;
    clearTimeout(idle);
    clearTimeout(total);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const cut = (kind: "idle" | "total") => {
    if (done) return;
    stop();
    logger("confidential").warn({ kind, ms: kind === "idle" ? idleMs : totalMs }, "enclave answer cut off at its deadline");
    controller.error(new AppError("timeout:enclave", "The secure enclave's answer stalled and was cut off."));
    response.destroy();
  };
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => cut("idle"), idleMs);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        total = setTimeout(() => cut("total"), totalMs);
        arm();
        response.on("data", (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) {
            // The browser is behind: not the enclave's silence.
            clearTimeout(idle);
            response.pause();
          } else {
            arm();
          }
        });
        response.once("end", () => {
          if (done) return;
          stop();
          controller.close();
        });
        response.once("close", () => {
          if (done) return;
          stop();
          controller.error(new AppError("upstream:enclave", "The secure enclave's answer was cut off."));
        });
      },
      pull() {
        if (done || !response.isPaused()) return;
        arm();
        response.resume();
      },
      cancel() {
        stop();
        response.destroy();
      },
    },
    { highWaterMark: 16 },
  );
}
