import { handleAuthRequest } from "@/lib/auth/route";

/** next-auth 4 (sign-in by e-mail link and Google, sign-out, CSRF, session): see lib/auth/route.ts. */
type Context = { params: Promise<{ nextauth: string[] }> };

export async function GET(request: Request, context: Context): Promise<Response> {
  return handleAuthRequest(request, (await context.params).nextauth);
}

export async function POST(request: Request, context: Context): Promise<Response> {
  return handleAuthRequest(request, (await context.params).nextauth);
}

export async function HEAD(request: Request, context: Context): Promise<Response> {
  return handleAuthRequest(request, (await context.params).nextauth);
}
