import type { HttpsClient } from "./https-client";
import type { Stack } from "./stack";

/** What the multi-instance test's checks share. */
export const FREE_LIMIT = 4;
export const VISITOR_LIMIT = 2;
export const GRACE_SECONDS = 20;
export const BASIC = "llama3-8b-8192";

export type Instance = NonNullable<Stack["apps"][0]>;

export interface DeployContext {
  stack: Stack;
  A: Instance;
  B: Instance;
  other: (addr: string) => string;
  /** From `localAddress`, if given; closed at the end. */
  client: (localAddress?: string) => HttpsClient;
  user: HttpsClient;
}

export const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: "user", content }],
  model: BASIC,
  file: null,
  chat_id: null,
  save_chat: false,
  ...extra,
});

let passed = 0;

/** Throws (ending the test) when it fails. */
export async function check(name: string, fn: () => Promise<void>): Promise<void> {
  const started = Date.now();
  await fn();
  passed++;
  console.log(`  ✓ ${name} (${Date.now() - started} ms)`);
}

export const checksPassed = () => passed;

export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The response headers come with the first token. */
export function instanceAt(stack: Stack, upstream: string): Instance {
  const app = stack.apps.find((a) => a.addr === upstream);
  if (!app) throw new Error(`unknown upstream "${upstream}"`);
  return app;
}
