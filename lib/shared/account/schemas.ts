import { z } from "@/lib/shared/zod";

/**
 * Request schemas of the account endpoints (docs/product.md §7). Shared by the route handlers and the OpenAPI
 * document (lib/server/openapi), so both describe the same objects.
 */

/** POST /api/create_account: the body is an empty JSON object (docs/product.md §7). */
export const createAccountBodySchema = z.object({}).strict();

/** POST /api/delete_user: docs/product.md §7 sends no body; a JSON body must be an empty object. */
export const deleteUserBodySchema = z.object({}).strict();

/** Bytes of either body. */
export const ACCOUNT_MAX_BODY_BYTES = 1024;
