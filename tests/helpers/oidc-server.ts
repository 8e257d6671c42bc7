/**
 * The test OpenID Connect issuer (tests/helpers/oidc.ts) as a process, for Playwright's webServer:
 *   npx tsx tests/helpers/oidc-server.ts --port 4030 --client-id <GOOGLE_CLIENT_ID>
 * Besides the OpenID endpoints: POST /__test/identity {sub, email, email_verified} sets the identity
 * of the next sign-ins; POST /__test/id-token {claims...} answers {token} signed by the issuer.
 */
import { startOidcServer } from "./oidc";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const server = await startOidcServer({
    port: Number(arg("--port") ?? 4030),
    clientId: arg("--client-id") ?? "test-client",
  });
  console.log(`[oidc-server] issuer ${server.issuer}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

void main();
