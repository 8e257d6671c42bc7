/**
 * Prisma CLI configuration (Prisma 7 reads the connection string here, not from schema.prisma).
 * Only the Prisma CLI loads this file, never the app, so it reads DATABASE_URL directly: the app's
 * settings go through lib/server/config.ts. The app applies migrations itself at start (lib/server/db/migrate.ts);
 * `npx prisma migrate deploy` (needs internet for the engine download) agrees with it.
 */
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL },
});
