/**
 * The multi-instance test (scripts/deploy/stack.ts), run by scripts/test.sh after the production build. Needs nginx,
 * redis-server, openssl, curl and PostgreSQL (TEST_POSTGRES_URL or 127.0.0.1:5432). Exits non-zero on a failed check.
 *   npx tsx --conditions=react-server scripts/deploy-test.ts
 */
import { HttpsClient } from "./deploy/https-client";
import { startStack, type Stack } from "./deploy/stack";
import { checksPassed, FREE_LIMIT, GRACE_SECONDS, VISITOR_LIMIT } from "./deploy/checks";
import { historyChecks } from "./deploy/checks-history";
import { sharedStateChecks } from "./deploy/checks-shared-state";
import { faultChecks } from "./deploy/checks-faults";
import { shutdownChecks } from "./deploy/checks-shutdown";

async function main(): Promise<void> {
  const t0 = Date.now();
  const stack = await startStack({
    appEnv: {
      QUOTA_FREE_PER_DAY: String(FREE_LIMIT),
      QUOTA_VISITOR_PER_DAY: String(VISITOR_LIMIT),
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    },
  });
  const [A, B] = stack.apps as [NonNullable<Stack["apps"][0]>, NonNullable<Stack["apps"][1]>];
  const other = (addr: string) => (addr === A.addr ? B.addr : A.addr);
  const clients: HttpsClient[] = [];
  const client = (localAddress?: string) => {
    const c = new HttpsClient(stack.origin, { ca: stack.ca, localAddress });
    clients.push(c);
    return c;
  };
  try {
    console.log(`multi-instance test (stack started in ${Date.now() - t0} ms)`);
    const user = await historyChecks({ stack, A, B, other, client });
    const ctx = { stack, A, B, other, client, user };
    await sharedStateChecks(ctx);
    await faultChecks(ctx);
    await shutdownChecks(ctx);
    console.log(`multi-instance test: ${checksPassed()} checks passed in ${Math.round((Date.now() - t0) / 1000)} s`);
  } finally {
    for (const c of clients) c.close();
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error("multi-instance test FAILED:", error);
    process.exit(1);
  },
);
