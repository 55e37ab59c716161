// A client that polls with min_date = the last ocorridoEm it saw must lose nothing while writers
// commit concurrently (docs/decisions/013-min-date-polling.md). Only meaningful on PostgreSQL:
// PGlite has one connection, so no transaction commits while another reads.
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { setupTestDatabase } from "@/test/database";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { createPartner, grantAccess, linkEdtech, type TPartner } from "@/test/fixtures/data-api";
import { earlyWriter, lateImport, pollWithMinDate, readFeed } from "@/test/fixtures/min-date-polling";

const t = setupTestDatabase();
let schoolId = "";
let partner: TPartner;

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
    const poller = pollWithMinDate((minDate) => readFeed(partner, schoolId, minDate));

    // The import: its transaction starts now but writes (and takes its xid) 1.5 s later, then
    // writes 4 batches of 2,000 over about 3 s, and commits.
    const importing = lateImport(t.db.prisma, schoolId, { delayMs: 1_500, batches: 4, size: 2_000, pauseMs: 700 });
    // A writer that took its xid before the import, writes its event 1.2 s later and commits
    // while the import runs.
    const early = earlyWriter(t.db.prisma, existing.id, 1_200);
    // Writers that start after the import began and commit before it takes its xid, then others
    // every 300 ms while it runs.
    const short = (async () => {
      for (let i = 0; i < 15; i++) {
        await sleep(i === 0 ? 1_100 : 300);
        await createProfile({ personId: (await createPerson({ name: `Aluno Avulso ${i}` })).id, institutionId: schoolId, role: "aluno" });
      }
    })();

    await Promise.all([importing, early, short]);
    await poller.finish();
    await flushAccessLogs();

    const all = await t.db.prisma.changeEvent.findMany({ where: { institutionId: schoolId }, select: { id: true } });
    expect(all.length).toBe(8_000 + 15 + 1 + 1);
    const missing = all.filter((e) => !poller.received.has(e.id));
    expect(missing.length).toBe(0);
  }, 90_000);
});
