// A client that polls with min_date = the last ocorridoEm it saw must lose nothing while writers
// commit concurrently (docs/decisions/013-min-date-polling.md). Only meaningful on PostgreSQL:
// PGlite has one connection, so no transaction commits while another reads.
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { importProfiles } from "@/lib/server/school-data/import-profiles";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { withGlobalIds } from "@/test/fixtures/pairwise";
import { setupTestDatabase } from "@/test/database";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { readData, type TDataResponse } from "./read-data-page";
import { createPartner, grantAccess, linkEdtech, type TPartner } from "@/test/fixtures/data-api";

const t = setupTestDatabase();
let schoolId = "";
let partner: TPartner;

/** "2026-11-25T00:36:38.123-03:00" (hub time zone) → "2026/11/25+00:36:38", the min_date form. */
const toMinDate = (ocorridoEm: string) => ocorridoEm.slice(0, 19).replace("T", "+").replaceAll("-", "/");

async function poll(minDate: string | null): Promise<TDataResponse> {
  const searchParams = new URLSearchParams(minDate ? { min_date: minDate } : {});
  const body = await readData({ apiKey: partner.key, orgId: schoolId, searchParams });
  // The partner reads its own (pairwise) event ids; the test compares them with the log's.
  return withGlobalIds(partner.applicationId, await ("bytes" in body ? body.parse() : body.parse<TDataResponse>()));
}

describe.runIf(!!process.env.DATABASE_URL)("min_date polling while writers commit concurrently (PostgreSQL)", () => {
  beforeAll(async () => {
    process.env.HUB_SECRET = "min-date-polling-test-secret-0123456789";
    resetEnvCache();
    schoolId = (await createInstitution({ name: "Escola do Relógio", kind: "school" })).id;
    partner = await createPartner("Edtech Relógio");
    await linkEdtech(schoolId, partner.edtechId);
    await grantAccess(schoolId, partner.applicationId, { allowed: ["nome_usuario"], anonymized: [] });
  });

  it("an 8,000-row import beside short writers: every event reaches a client polling with min_date", async () => {
    const existing = await createProfile({ personId: (await createPerson({ name: "Aluna Antiga" })).id, institutionId: schoolId, role: "aluno" });
    let done = false;
    const received = new Set<string>();
    let minDate: string | null = null;

    const poller = (async () => {
      let quiet = 0;
      while (!done || quiet < 3) {
        const body = await poll(minDate);
        const events = Object.values(body.dados).flat();
        const fresh = events.filter((e) => !received.has(e.id));
        for (const e of events) received.add(e.id);
        const latest = events.map((e) => e.ocorridoEm).sort().at(-1);
        if (latest && (!minDate || toMinDate(latest) > minDate)) minDate = toMinDate(latest);
        quiet = done && fresh.length === 0 ? quiet + 1 : 0;
        await sleep(done ? 400 : 150);
      }
    })();

    // The import: its transaction starts now but writes (and takes its xid) 1.5 s later, then
    // writes 4 batches of 2,000 over about 3 s, and commits.
    const importing = t.db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        await sleep(1_500);
        for (let b = 0; b < 4; b++) {
          const people = Array.from({ length: 2_000 }, (_, i) => ({ person: { name: `Aluno Importado ${b}-${i}` }, role: "aluno" as const }));
          await importProfiles({ institutionId: schoolId, people }, { tx });
          await sleep(700);
        }
      },
      { timeout: 60_000 },
    );
    // A writer that took its xid before the import, writes its event 1.2 s later and commits
    // while the import runs.
    const early = t.db.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`UPDATE "Person" SET "updatedAt" = now() WHERE id = (SELECT "personId" FROM "Profile" WHERE id = $1::uuid)`, existing.id);
        await sleep(1_200);
        await updatePerson({ personId: (await tx.profile.findUniqueOrThrow({ where: { id: existing.id } })).personId, changes: { name: "Aluna Antiga Atualizada" } }, { tx });
      },
      { timeout: 20_000 },
    );
    // Writers that start after the import began and commit before it takes its xid, then others
    // every 300 ms while it runs.
    const short = (async () => {
      for (let i = 0; i < 15; i++) {
        await sleep(i === 0 ? 1_100 : 300);
        await createProfile({ personId: (await createPerson({ name: `Aluno Avulso ${i}` })).id, institutionId: schoolId, role: "aluno" });
      }
    })();

    await Promise.all([importing, early, short]);
    done = true;
    await poller;
    await flushAccessLogs();

    const all = await t.db.prisma.changeEvent.findMany({ where: { institutionId: schoolId }, select: { id: true } });
    expect(all.length).toBe(8_000 + 15 + 1 + 1);
    const missing = all.filter((e) => !received.has(e.id));
    expect(missing.length).toBe(0);
  }, 90_000);
});
