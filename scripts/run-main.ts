import { closeDb } from "@/lib/server/db/client";

/**
 * Run a command's `main`, close the database (PGlite keeps the process alive otherwise) and exit
 * with its code; a thrown error prints its kind and message only and exits 1.
 */
export function runMain(main: () => Promise<number>): void {
  main().then(
    async (code) => {
      await closeDb();
      process.exit(code);
    },
    async (error: unknown) => {
      console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
      await closeDb().catch(() => undefined);
      process.exit(1);
    },
  );
}
