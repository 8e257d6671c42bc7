import { z } from "@/lib/shared/zod";

export const createAccountBodySchema = z.object({}).strict();

export const deleteUserBodySchema = z.object({}).strict();

export const ACCOUNT_MAX_BODY_BYTES = 1024;
