import "server-only";
import { route } from "@/lib/server/api/route";
import { api } from "@/lib/shared/api/contract";
import { handleAuthRequest } from "@/lib/server/auth/route";

/**
 * next-auth 4 (sign-in by e-mail link and Google, sign-out, CSRF, session): see lib/server/auth/route.ts, which
 * makes its own checks (same-origin on POST, the form body, the e-mail limit) around next-auth's handler,
 * so the wrapper's steps are off here. The contract lists the calls the browser makes (api.authCsrf,
 * api.authSignInEmail, api.authSignInGoogle).
 */
type Params = { nextauth: string[] };

const handler = route<typeof api.authCsrf, Params>(api.authCsrf, async ({ request, params }) =>
  handleAuthRequest(request, params.nextauth),
);

export const GET = handler;
export const POST = handler;
export const HEAD = handler;
