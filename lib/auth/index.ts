/**
 * Sign-in and the caller's identity (docs/product.md §4, §6). Route handlers: `requireUser(request)` /
 * `getRequestUser(request)`, and `assertSameOrigin(request)` before changing state. Pages:
 * `getPageUser()`. Account deletion: `revokeUserSessions(userId)`.
 */
export {
  ACCOUNT_DELETED_MESSAGE,
  assertSameOrigin,
  getPageUser,
  getRequestUser,
  requireUser,
  revokeUserSessions,
} from "@/lib/auth/session";
export type { AuthUser } from "@/lib/auth/types";
