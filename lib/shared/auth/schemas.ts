import { z } from "@/lib/shared/zod";

/**
 * Request schemas of the /api/auth/* handlers we own (not next-auth's). Here, not in the route files,
 * so the handler and the OpenAPI document (lib/server/openapi) use the same objects.
 */

/** POST /api/auth/id-token `{ idToken }`: a Google ID token (a JWT; 8 KiB is far above Google's). */
export const idTokenBodySchema = z.object({ idToken: z.string().min(1).max(8192) }).strict();

/** Bytes of an id-token request body. */
export const ID_TOKEN_MAX_BODY_BYTES = 16 * 1024;
