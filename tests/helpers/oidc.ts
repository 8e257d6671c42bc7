/**
 * An OpenID Connect issuer playing Google in tests (oauth2-mock-server: discovery document, JWKS,
 * /authorize that answers at once with a code, /token with PKCE), with:
 * - the identity put in the ID tokens of the authorization-code flow (`setIdentity`, or
 *   POST /__test/identity {sub, email, email_verified} from another process);
 * - `signIdToken(claims)`: an RS256 ID token signed by the issuer's published key, audience the
 *   client id, e-mail verified, unless the claims say otherwise.
 * tests/helpers/oidc-server.ts runs it as a separate process for Playwright.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";

export interface TestIdentity {
  sub: string;
  email: string;
  email_verified?: boolean;
}

export interface TestOidcServer {
  /** Issuer URL (GOOGLE_ISSUER), e.g. http://127.0.0.1:4030. */
  issuer: string;
  clientId: string;
  port: number;
  /** Identity of the next ID tokens issued by the /token endpoint. */
  setIdentity(identity: TestIdentity): void;
  /** An ID token signed by the issuer. `expiresIn` in seconds (negative: already expired). */
  signIdToken(claims?: Record<string, unknown>, options?: { expiresIn?: number }): Promise<string>;
  close(): Promise<void>;
}

export const DEFAULT_IDENTITY: TestIdentity = { sub: "google-test-subject", email: "google.user@example.test" };

export async function startOidcServer(options: { clientId: string; port?: number; host?: string }): Promise<TestOidcServer> {
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate("RS256");
  const service = new OAuth2Service(issuer);
  let identity: TestIdentity = DEFAULT_IDENTITY;

  // Every token from /token carries the current identity (after the mock's own "johndoe" defaults).
  service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, {
      sub: identity.sub,
      email: identity.email,
      email_verified: identity.email_verified ?? true,
    });
  });

  const server = http.createServer((req, res) => {
    if (req.url === "/__test/identity" && req.method === "POST") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        try {
          identity = { ...DEFAULT_IDENTITY, ...(JSON.parse(body) as Partial<TestIdentity>) };
          res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
        } catch {
          res.writeHead(400).end();
        }
      });
      return;
    }
    if (req.url === "/__test/id-token" && req.method === "POST") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        void sign(JSON.parse(body || "{}") as Record<string, unknown>).then((token) => {
          res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ token }));
        });
      });
      return;
    }
    service.requestHandler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  issuer.url = `http://127.0.0.1:${port}`;

  async function sign(claims: Record<string, unknown> = {}, opts: { expiresIn?: number } = {}): Promise<string> {
    const { expiresIn, ...rest } = claims as { expiresIn?: number };
    return issuer.buildToken({
      expiresIn: opts.expiresIn ?? (typeof expiresIn === "number" ? expiresIn : 3600),
      scopesOrTransform: (_header, payload) => {
        Object.assign(payload, {
          aud: options.clientId,
          sub: DEFAULT_IDENTITY.sub,
          email: DEFAULT_IDENTITY.email,
          email_verified: true,
          ...rest,
        });
      },
    });
  }

  return {
    issuer: issuer.url,
    clientId: options.clientId,
    port,
    setIdentity: (next) => {
      identity = next;
    },
    signIdToken: sign,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
