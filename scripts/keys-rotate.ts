/**
 * `npm run keys:rotate`: re-wraps every user's data key under the current master key.
 *
 * Rotating the master key (ENCRYPTION_MASTER_KEY):
 *   1. Generate a new key: `openssl rand -base64 32`.
 *   2. Deploy with ENCRYPTION_MASTER_KEY=<new key> and ENCRYPTION_MASTER_KEY_PREVIOUS=<old key>.
 *      The app keeps working throughout: new data keys are wrapped under the new key, and keys
 *      still wrapped under the old one are unwrapped with ENCRYPTION_MASTER_KEY_PREVIOUS.
 *   3. Run `npm run keys:rotate` with the same two settings (and the app's DATABASE_URL / DATA_DIR).
 *      It re-wraps, in batches of 500, each data key whose master key id differs from the new key's,
 *      then prints the counts. It is idempotent: run it again after an interruption; a finished
 *      rotation reports "re-wrapped 0". Messages and titles are not touched (they are encrypted under
 *      the data keys, which do not change).
 *   4. When it reports "not re-wrapped 0", remove ENCRYPTION_MASTER_KEY_PREVIOUS, redeploy, and
 *      destroy the old key. Backups taken before step 3 still need the old key to be read.
 * A data key under a master key that is neither setting is counted as "not re-wrapped" and left as
 * is; the exit status is then 1.
 * With embedded PGlite (no DATABASE_URL), stop the app first: PGlite allows one process at a time.
 * Settings come from the environment (export them as the app's deployment sets them).
 */
import { runMain } from "./run-main";
import { rotateDataKeys } from "@/lib/db/data-keys";
import { getMasterKeys } from "@/lib/crypto";

async function main(): Promise<number> {
  const keys = await getMasterKeys();
  console.log(
    `Current master key ${keys.current.id}; previous ${keys.previous ? keys.previous.id : "(not set)"}.`,
  );
  const result = await rotateDataKeys({
    onBatch: (p) => console.log(`  ... re-wrapped ${p.rewrapped}, not re-wrapped ${p.unavailable}`),
  });
  console.log(
    `Done: re-wrapped ${result.rewrapped}; under the current key ${result.current}; ` +
      `not re-wrapped ${result.unavailable} (wrapped under a master key that is not configured).`,
  );
  return result.unavailable ? 1 : 0;
}

runMain(main);
