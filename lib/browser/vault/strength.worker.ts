/// <reference lib="webworker" />
/**
 * The passphrase rating worker: zxcvbn-ts and its dictionaries on their own thread, so rating
 * a passphrase (20–700 ms on a phone profile) never holds up typing. Started by lib/browser/vault/strength.ts
 * `ratePassphraseOffThread` when a passphrase field is first focused; its chunk (the dictionaries) is
 * fetched then, never with a page. Protocol: receives { hush: "strength", id, passphrase }, answers
 * { hush: "strength", id, rating } or { hush: "strength", id, failed: true }. Nothing is logged.
 */
import * as core from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";
import { makeRater, rateWith } from "./strength";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const rater = makeRater(core, common, en);

scope.addEventListener("message", (event: MessageEvent<{ hush?: string; id: number; passphrase: string }>) => {
  if (event.data?.hush !== "strength") return;
  const { id, passphrase } = event.data;
  try {
    scope.postMessage({ hush: "strength", id, rating: rateWith(rater, passphrase) });
  } catch {
    scope.postMessage({ hush: "strength", id, failed: true });
  }
});
