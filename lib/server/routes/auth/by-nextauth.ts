import "server-only";
import { route } from "@/lib/server/api/route";
import { api } from "@/lib/shared/api/contract";
import { handleAuthRequest } from "@/lib/server/auth/route";

// next-auth's handler; lib/server/auth/route.ts makes its own checks around it, so the wrapper's steps are off.
type Params = { nextauth: string[] };

const handler = route<typeof api.authCsrf, Params>(api.authCsrf, async ({ request, params }) =>
  handleAuthRequest(request, params.nextauth),
);

export const GET = handler;
export const POST = handler;
export const HEAD = handler;
