// Gap-free paging under concurrent writes (docs/decisions/003-gap-free-paging.md). Only meaningful
// on PostgreSQL: PGlite has one connection, so no transaction can commit while another reads.
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { unenrollStudent } from "@/lib/server/school-data/unenroll-student";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { withGlobalIds } from "@/test/fixtures/pairwise";
import { setupTestDatabase } from "@/test/database";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { readDataPage, type TDataResponse } from "./read-data-page";
import { createPartner, grantAccess, linkEdtech, type TPartner } from "@/test/fixtures/data-api";

const t = setupTestDatabase();
let schoolId = "";
let classId = "";
let partner: TPartner;

const ids = (body: TDataResponse) => Object.values(body.dados).flatMap((list) => list!.map((e) => e.id));

async function page(cursor: string | null, limit = 7): Promise<TDataResponse> {
  const searchParams = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
  // The partner reads its own (pairwise) event ids; the test compares them with the log's.
  return withGlobalIds(partner.applicationId, (await readDataPage({ apiKey: partner.key, orgId: schoolId, searchParams })).parse());
}

/** (txid, seq) of each event id, to check that pages follow the documented order. */
async function positions(): Promise<Map<string, [bigint, bigint]>> {
  const rows = await t.db.prisma.changeEvent.findMany({ where: { institutionId: schoolId }, select: { id: true, txid: true, seq: true } });
  return new Map(rows.map((r) => [r.id, [r.txid, r.seq]]));
}

const before = (a: [bigint, bigint], b: [bigint, bigint]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

describe.runIf(!!process.env.DATABASE_URL)("paging while writers commit concurrently (PostgreSQL)", () => {
  beforeAll(async () => {
    process.env.HUB_SECRET = "paging-concurrency-test-secret-012345";
    resetEnvCache();
    schoolId = (await createInstitution({ name: "Escola Concorrente", kind: "school" })).id;
    const period = await createPeriod({ institutionId: schoolId, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
    classId = (await createClass({ periodId: period.id, name: "Turma Única" })).id;
    partner = await createPartner("Edtech C");
    await linkEdtech(schoolId, partner.edtechId);
    // telefone too: the writers' phone updates are delivered only to a partner that receives it
    // (docs/decisions/016), and this test counts every event of the log.
    await grantAccess(schoolId, partner.applicationId, { allowed: ["nome_usuario", "telefone"], anonymized: [] });
  });

  it("an event whose transaction commits late is not skipped (a seq-only cursor would skip it)", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let lateInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (lateInserted = resolve));
    const late = t.db.prisma.$transaction(
      async (tx) => {
        const person = await createPerson({ name: "Aluno Tardio" }, { tx });
        const profile = await createProfile({ personId: person.id, institutionId: schoolId, role: "aluno" }, { tx });
        lateInserted();
        await released;
        return profile;
      },
      { timeout: 20_000 },
    );
    await inserted;
    const early = await createProfile({ personId: (await createPerson({ name: "Aluno Rápido" })).id, institutionId: schoolId, role: "aluno" });
    // A reader paging by seq alone sees the committed event now and moves its cursor past it.
    const naive = await t.db.sql.query<{ id: string; seq: string }>(
      `SELECT id, seq::text AS seq FROM "ChangeEvent" WHERE "institutionId" = $1::uuid ORDER BY seq`,
      [schoolId],
    );
    const naiveCursor = BigInt(naive.at(-1)!.seq);

    // Drain what is visible: the committed "early" event must not be served past the open one.
    let cursor: string | null = null;
    const seen: string[] = [];
    let body = await page(cursor, 1000);
    seen.push(...ids(body));
    cursor = body.paginacao.cursorRetomada;
    const earlyEvent = await t.db.prisma.changeEvent.findFirstOrThrow({ where: { recordId: early.id } });
    expect(seen).not.toContain(earlyEvent.id);

    release();
    const lateProfile = await late;
    const lateEvent = await t.db.prisma.changeEvent.findFirstOrThrow({ where: { recordId: lateProfile.id } });
    for (let i = 0; i < 200 && !(seen.includes(earlyEvent.id) && seen.includes(lateEvent.id)); i++) {
      body = await page(cursor, 1000);
      seen.push(...ids(body));
      cursor = body.paginacao.cursorRetomada;
      if (!ids(body).length) await sleep(100);
    }
    // The late event has a lower seq than the cursor the naive reader already holds: it would
    // never see it. The Data API delivers both, in transaction order.
    expect(lateEvent.seq).toBeLessThan(naiveCursor);
    expect(earlyEvent.seq).toBe(naiveCursor);
    expect(seen.filter((id) => id === lateEvent.id || id === earlyEvent.id)).toEqual([lateEvent.id, earlyEvent.id]);
  });

  it("a write left open in another database of the server does not hold the feed back", async () => {
    const drained = await page(null, 1000);
    expect(drained.paginacao.proximoCursor).toBeNull();
    // A session on the admin database (another database of the same server) takes an xid and waits.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      const { xid } = (await other.query<{ xid: string }>("SELECT pg_current_xact_id()::text AS xid")).rows[0]!;
      const profile = await createProfile({ personId: (await createPerson({ name: "Aluno Depois" })).id, institutionId: schoolId, role: "aluno" });
      const event = await t.db.prisma.changeEvent.findFirstOrThrow({ where: { recordId: profile.id } });
      // The server-wide snapshot xmin is held back by the other database's transaction…
      const [cluster] = await t.db.sql.query<{ xmin: string }>("SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin");
      expect(BigInt(cluster!.xmin)).toBeLessThanOrEqual(BigInt(xid));
      expect(BigInt(xid)).toBeLessThan(event.txid);
      // …but the feed serves this database's committed event at once.
      const body = await page(drained.paginacao.cursorRetomada, 1000);
      expect(ids(body)).toEqual([event.id]);
    } finally {
      await other.query("ROLLBACK");
      await other.end();
    }
  });

  it("several writers, some holding their transaction open, while a reader pages with limit 7: every event exactly once, in order", async () => {
    let writersDone = false;
    const writer = async (w: number) => {
      for (let i = 0; i < 12; i++) {
        const hold = (w + i) % 3 === 0 ? 50 + ((w * 37 + i * 53) % 250) : 0;
        await t.db.prisma.$transaction(
          async (tx) => {
            const person = await createPerson({ name: `Aluno ${w}-${i}`, email: `a${w}-${i}@concorrente.test` }, { tx });
            const profile = await createProfile({ personId: person.id, institutionId: schoolId, role: "aluno" }, { tx });
            if (hold) await sleep(hold);
            const enrollment = await enrollStudent({ classId, studentId: profile.id }, { tx });
            if (i % 4 === 1) await unenrollStudent({ enrollmentId: enrollment.id }, { tx });
            if (i % 4 === 2) await updatePerson({ personId: person.id, changes: { phone: `11 9${String(w).padStart(4, "0")}-${String(i).padStart(4, "0")}` } }, { tx });
          },
          { timeout: 20_000 },
        );
        if (i % 2 === 0) await sleep(5);
      }
    };
    const start = (await positions()).size;
    const writers = Promise.all([1, 2, 3, 4, 5].map(writer)).finally(() => (writersDone = true));

    const pages: string[][] = [];
    let cursor: string | null = null;
    // Start from the very beginning so the earlier test's events are read again here too.
    const deadline = Date.now() + 20_000;
    let expected = Infinity;
    while (Date.now() < deadline) {
      const body = await page(cursor);
      pages.push(ids(body));
      cursor = body.paginacao.proximoCursor ?? body.paginacao.cursorRetomada;
      if (writersDone && expected === Infinity) expected = (await positions()).size;
      if (pages.flat().length >= expected && !body.paginacao.proximoCursor) break;
      if (!body.paginacao.proximoCursor) await sleep(writersDone ? 50 : 10);
    }
    await writers;
    await flushAccessLogs();

    const all = await positions();
    const seen = pages.flat();
    expect(all.size).toBeGreaterThan(start + 5 * 12 * 2);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...all.keys()].sort());
    expect(pages.filter((p) => p.length > 7)).toEqual([]);
    // Each page lies entirely after the previous one in (txid, seq) order.
    const nonEmpty = pages.filter((p) => p.length);
    for (let i = 1; i < nonEmpty.length; i++) {
      const prevMax = nonEmpty[i - 1]!.map((id) => all.get(id)!).reduce((a, b) => (before(a, b) ? b : a));
      const nextMin = nonEmpty[i]!.map((id) => all.get(id)!).reduce((a, b) => (before(a, b) ? a : b));
      expect(before(prevMax, nextMin)).toBe(true);
    }
  });
});
