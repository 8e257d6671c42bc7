import "server-only";
import type { IncomingMessage } from "node:http";
import type { Writable } from "node:stream";
import type { z } from "@/lib/shared/zod";
import { diskFull, isDatabaseUnavailable, isDiskFull } from "@/lib/server/db/errors";
import { formatBytes } from "@/lib/shared/bytes";
import { AppError } from "@/lib/shared/errors";
import { logger, securityEvent } from "@/lib/server/log";

export function jsonError(status: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ error: message }, { status, headers });
}

/** `request`'s JSON body, at most `maxBytes`, validated by `schema`. @throws AppError 413, 415, 400 */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes: number,
): Promise<z.infer<S>> {
  checkJsonHeaders(request.headers.get("content-type"), request.headers.get("content-length"), maxBytes);
  return parseJsonBody(await readWebBody(request, maxBytes), schema);
}

/** @throws AppError 415 not JSON, 413 declared larger than `maxBytes`. */
export function checkJsonHeaders(contentType: string | null | undefined, contentLength: string | null | undefined, maxBytes: number): void {
  if (!(contentType ?? "").toLowerCase().includes("application/json")) {
    throw new AppError("unsupported_media_type:body", "Send the request body as JSON (Content-Type: application/json).");
  }
  if (Number(contentLength ?? "0") > maxBytes) throw tooLarge(maxBytes);
}

/** @throws AppError 400 malformed JSON or failing `schema`. */
export function parseJsonBody<S extends z.ZodType>(bytes: Buffer, schema: S): z.infer<S> {
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new AppError("bad_request:body", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}

export function emptyBody(): AppError {
  return new AppError("bad_request:body", "The request body is empty.");
}

/** @throws AppError 400 empty, 413 past `maxBytes`. */
export async function readWebBody(request: Request, maxBytes: number): Promise<Buffer> {
  if (!request.body) throw emptyBody();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body straight from the socket. @throws AppError 413; Error when the client goes away. */
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) {
      reject(new Error("request body cut off"));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        stop();
        req.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onClose = () => {
      if (req.complete) return;
      stop();
      reject(new Error("request body cut off"));
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onClose);
  });
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload_too_large:body", `The request is too large (limit ${formatBytes(maxBytes)}).`);
}

export function invalidRequest(error: z.ZodError): AppError {
  return new AppError("bad_request:validation", describeIssue(error.issues[0]));
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "The request is not valid.";
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  return `Invalid request: ${where}${issue.message}`;
}

/** Any thrown value as a Response; an unexpected error is a 500 logged by kind only (507 disk full, docs/issues.md #53). */
export function errorResponse(error: unknown, context: string): Response {
  // The data folder's lock names its paths and holder: answered as the generic 503.
  if (error instanceof AppError && error.type !== "internal" && error.code !== "unavailable:data_dir_in_use") {
    refusalEvent(error.status, context);
    return error.toResponse();
  }
  if (isDiskFull(error)) {
    logger(context).error("disk full: a write was refused");
    return diskFull().toResponse();
  }
  if (isDatabaseUnavailable(error)) {
    logger(context).error("database unavailable");
    return jsonError(503, "The service is briefly unavailable. Please try again in a moment.", { "Retry-After": "5" });
  }
  logger(context).error({ err: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" }, "unexpected error");
  return jsonError(500, "Something went wrong on our side. Please try again.");
}

/** The security event of a 401, 403 or 429 answer (ASVS V16.3). */
export function refusalEvent(status: number, route: string): void {
  if (status === 401) securityEvent("http.unauthorized", { route });
  else if (status === 403) securityEvent("http.forbidden", { route });
  else if (status === 429) securityEvent("http.rate_limited", { route });
}

export function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}
