import type { PrismaClient } from "@/lib/server/db/client";

/**
 * Every row of every table in the public schema as JSON text (bytea columns come out as \x hex), for
 * tests that check nothing readable is stored. Equivalent in content to a data-only pg_dump.
 */
export async function dumpDatabase(db: PrismaClient): Promise<string> {
  const tables = await db.$queryRawUnsafe<{ table_name: string }[]>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = await db.$queryRawUnsafe<{ row: string }[]>(`SELECT row_to_json(t)::text AS row FROM "${table_name.replace(/"/g, '""')}" t`);
    parts.push(`-- ${table_name}`, ...rows.map((r) => r.row));
  }
  return parts.join("\n");
}
