import { z } from "@/lib/shared/zod";

export const idTokenBodySchema = z.object({ idToken: z.string().min(1).max(8192) }).strict();

export const ID_TOKEN_MAX_BODY_BYTES = 16 * 1024;
