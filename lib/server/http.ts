import "server-only";
import type { IncomingMessage } from "node:http";
import type { Writable } from "node:stream";
import type { z } from "@/lib/shared/zod";
import { diskFull, isDatabaseUnavailable, isDiskFull } from "@/lib/server/db/errors";
import { formatBytes } from "@/lib/shared/bytes";
import { AppError } from "@/lib/shared/errors";
import { logger, securityEvent } from "@/lib/server/log";

/**
 * HTTP helpers shared by every route handler (through lib/server/api/route.ts): the `{ "error": "..." }` body,
 * a size-bounded JSON body reader validated by a zod schema, and the mapping of any thrown value to a
 * Response. The one error type is AppError (lib/shared/errors.ts).
 */

/** `{ "error": message }` with the given status. */
export function jsonError(status: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ error: message }, { status, headers });
}

/**
 * Read and validate `request`'s Web body as JSON of at most `maxBytes` bytes (UTF-8), counting while
 * streaming so a client that lies in Content-Length cannot make the server buffer more.
 * @throws AppError 413 too large, 415 not JSON, 400 empty, malformed JSON or failing `schema`.
 */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes: number,
): Promise<z.infer<S>> {
  checkJsonHeaders(request.headers.get("content-type"), request.headers.get("content-length"), maxBytes);
  return parseJsonBody(await readWebBody(request, maxBytes), schema);
}

/**
 * The checks of a JSON body made before any of it is read, from its Content-Type and Content-Length.
 * @throws AppError 415 not JSON, 413 declared larger than `maxBytes`.
 */
export function checkJsonHeaders(contentType: string | null | undefined, contentLength: string | null | undefined, maxBytes: number): void {
  if (!(contentType ?? "").toLowerCase().includes("application/json")) {
    throw new AppError("unsupported_media_type:body", "Send the request body as JSON (Content-Type: application/json).");
  }
  if (Number(contentLength ?? "0") > maxBytes) throw tooLarge(maxBytes);
}

/** `bytes` (UTF-8 JSON) validated by `schema`. @throws AppError 400 malformed JSON or failing `schema`. */
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

/** The empty body's refusal (400). */
export function emptyBody(): AppError {
  return new AppError("bad_request:body", "The request body is empty.");
}

/** A Web request's body bytes, counted as they come. @throws AppError 400 empty, 413 past `maxBytes` (the rest is not read). */
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

/**
 * The body of `req` straight from the socket (server.mjs's hot path), counted as it comes. Too large:
 * stops listening (the hot path drops the rest once it has answered, lib/server/hot-path.ts).
 * @throws AppError 413; Error when the client goes away before the end.
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The connection closed before the handler came to the body: no event would tell.
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
    // Closed before the end: the client went away mid-body; never take it as whole.
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

/** The 400 of a request failing its schema: "Invalid request: <field>: <message>" for the first issue. */
export function invalidRequest(error: z.ZodError): AppError {
  return new AppError("bad_request:validation", describeIssue(error.issues[0]));
}

/** First validation issue as a sentence naming the field, e.g. "messages.0.content: Too long". */
function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "The request is not valid.";
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  return `Invalid request: ${where}${issue.message}`;
}

/**
 * Turn any thrown value into a Response: an AppError answers its own status and message (a chat that is
 * missing or another user's is 404, never 403, so ids reveal nothing), except "internal:*" ones, which
 * are logged and answer the generic 500; a write that failed for lack of disk space answers 507
 * (docs/issues.md #53); an unreachable database answers 503; anything else is a 500 logged by kind only.
 */
export function errorResponse(error: unknown, context: string): Response {
  // The data folder's lock names its paths and holder: for the operator, answered as the generic 503.
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
  // Log the error's kind and message only: messages we create never carry user content.
  logger(context).error({ err: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" }, "unexpected error");
  return jsonError(500, "Something went wrong on our side. Please try again.");
}

/** The security event of a refusal (ASVS V16.3): 401, 403 and 429 answers; other statuses log nothing. */
export function refusalEvent(status: number, route: string): void {
  if (status === 401) securityEvent("http.unauthorized", { route });
  else if (status === 403) securityEvent("http.forbidden", { route });
  else if (status === 429) securityEvent("http.rate_limited", { route });
}

/**
 * Resolves when `stream` can take more after a write returned false ("drain"), or is gone ("close"):
 * the back-pressure wait of the hot path's answers and the relay's upload to the enclave.
 */
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
