import "server-only";
import type { z } from "zod";
import {
  ChatNotFoundError,
  InvalidCursorError,
  InvalidInputError,
  isDatabaseUnavailable,
  NoVaultError,
  SaveConflictError,
  UserUnavailableError,
  VaultExistsError,
} from "@/lib/db/errors";
import { logger, securityEvent } from "@/lib/log";

/**
 * HTTP helpers shared by every route handler: typed API errors, the `{ "error": "..." }` body,
 * and a size-bounded JSON body reader validated by a zod schema.
 */

/** An error that becomes an HTTP answer: `status` and a user-facing `message` (never user content). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** `{ "error": message }` with the given status. */
export function jsonError(status: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ error: message }, { status, headers });
}

/**
 * Read and validate a JSON body of at most `maxBytes` bytes (UTF-8), counting while streaming so a
 * client that lies in Content-Length cannot make the server buffer more.
 * @throws ApiError 413 too large, 415 not JSON, 400 malformed JSON or failing `schema`.
 */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes: number,
): Promise<z.infer<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().includes("application/json")) {
    throw new ApiError(415, "Send the request body as JSON (Content-Type: application/json).");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) throw new ApiError(400, "The request body is empty.");

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

  let data: unknown;
  try {
    data = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ApiError(400, "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(400, describeIssue(parsed.error.issues[0]));
  return parsed.data;
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `The request is too large (limit ${Math.floor(maxBytes / (1024 * 1024))} MB).`);
}

/** First validation issue as a sentence naming the field, e.g. "messages.0.content: Too long". */
function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "The request is not valid.";
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  return `Invalid request: ${where}${issue.message}`;
}

/**
 * Turn any thrown value into a Response: ApiError keeps its status; the data layer's typed errors map to
 * 404 (a chat that is missing or another user's: never 403, so ids reveal nothing), 400, 403 and 409
 * (vault state conflicts);
 * anything else is a 500 logged by kind only.
 */
export function errorResponse(error: unknown, context: string): Response {
  if (error instanceof ApiError) {
    refusalEvent(error.status, context);
    return jsonError(error.status, error.message, error.headers);
  }
  if (error instanceof ChatNotFoundError) return jsonError(404, "Chat not found.");
  if (error instanceof InvalidCursorError || error instanceof InvalidInputError) return jsonError(400, error.message);
  if (error instanceof NoVaultError || error instanceof VaultExistsError || error instanceof SaveConflictError) {
    return jsonError(409, error.message);
  }
  if (error instanceof UserUnavailableError) {
    const status = error.reason === "deleted" ? 403 : 401;
    refusalEvent(status, context);
    return jsonError(status, error.message);
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
