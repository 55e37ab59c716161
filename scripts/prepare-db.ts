// Applies pending migrations and seeds the demo when the database is empty. Run by `npm start`
// before the server opens the embedded database (PGlite allows one process at a time).
import { configuredDatabase, createDatabase, database, setDatabase } from "@/lib/db";
import { env } from "@/lib/env";
import { applyMigrations } from "@/lib/server/db/migrate";
import { seedDemo } from "@/prisma/seed/demo";

async function main() {
  const started = performance.now();
  // A migration may rewrite a large table: no statement time limit here (the server keeps its own).
  setDatabase(createDatabase({ ...configuredDatabase(), statementTimeoutMs: 0 }));
  const { sql, prisma } = database();
  const { applied } = await applyMigrations(sql);
  if (applied.length) console.log(`  migrations applied: ${applied.join(", ")}`);
  const empty = (await prisma.institution.count()) === 0;
  if (empty && process.env.HUB_SEED !== "0") {
    console.log("  seeding the demo data (first start only)…");
    await seedDemo({ baseUrl: env().HUB_BASE_URL });
  }
  console.log(`  database ready (${sql.kind}) in ${Math.round(performance.now() - started)} ms`);
  await database().close();
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
