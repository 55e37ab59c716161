// Applies pending migrations, seeds the demo when the database is empty, creates the identity
// roots and re-seals with the current HUB_SECRET whatever an older secret sealed (after a
// rotation: docs/security.md). Run by `npm start` before the server opens the embedded database
// (PGlite allows one process at a time), unless the embedded database was already prepared with
// the same migrations and secrets (ensurePrepared in scripts/lib/steps.mjs).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { configuredDatabase, createDatabase, database, pgliteDataDir, setDatabase } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { resealSecrets } from "@/lib/server/crypto/reseal-secrets";
import { applyMigrations } from "@/lib/server/db/migrate";
import { seedDemo } from "@/prisma/seed/demo";
import { embeddedPreparation } from "./lib/steps.mjs";

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
  await loadIdentityRoots();
  const resealed = await resealSecrets();
  if (resealed.toolSecrets + resealed.signingKeys + resealed.identityRoots + resealed.upstreamSecrets > 0) {
    console.log(
      `  re-sealed with the current HUB_SECRET: ${resealed.toolSecrets} LTI secrets, ${resealed.signingKeys} signing keys, ${resealed.identityRoots} identity roots, ${resealed.upstreamSecrets} upstream client secrets`,
    );
  }
  console.log(`  database ready (${sql.kind}) in ${Math.round(performance.now() - started)} ms`);
  await database().close();
  // Recorded last, once all of the above succeeded: the next `npm start` skips this script while
  // nothing it depends on changed (ensurePrepared). Computed now, when the embedded install's
  // own secret exists.
  const preparation = embeddedPreparation();
  if (preparation && path.dirname(preparation.file) === pgliteDataDir()) writeFileSync(preparation.file, preparation.value);
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
