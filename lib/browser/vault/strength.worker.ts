/// <reference lib="webworker" />
// The passphrase rating worker, so rating never holds up typing. Nothing is logged.
import * as core from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";
import { makeRater, rateWith } from "./strength";

// The DOM lib types `self` as a Window; in a worker it is the worker's scope.
// eslint-disable-next-line no-restricted-syntax
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
