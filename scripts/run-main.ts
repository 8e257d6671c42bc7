import { closeDb } from "@/lib/server/db/client";
import { isAppError } from "@/lib/shared/errors";

/** Run `main`, close the database and exit with its code; a thrown error prints its message only and exits 1. */
export function runMain(main: () => Promise<number>): void {
  main().then(
    async (code) => {
      await closeDb();
      process.exit(code);
    },
    async (error: unknown) => {
      console.error(isAppError(error) ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : error);
      await closeDb().catch(() => undefined);
      process.exit(1);
    },
  );
}
