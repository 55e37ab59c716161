// A OneRoster client that asks for `dateLastModified>` the newest value it saw must lose nothing
// while writers commit concurrently, transactions that took their ids out of the order they
// started in included (docs/decisions/040-oneroster-as-a-view-of-the-feed.md). Only meaningful on
// PostgreSQL: PGlite has one connection, so no transaction commits while another reads.
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { pairwiseIds, type TPairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { importProfiles } from "@/lib/server/school-data/import-profiles";
import { setupTestDatabase } from "@/test/database";
import { lateImport, pollUntilQuiet } from "@/test/fixtures/min-date-polling";
import { createTestApp, TEST_ISSUER, type TTestApp } from "@/test/fixtures/oauth";
import { oneRosterToken } from "@/test/fixtures/oneroster";
import { readRostering } from "./read-rostering";

const t = setupTestDatabase();
let schoolId = "";
let app: TTestApp;
let token = "";
let ids: TPairwiseIds;


/**
 * One poll as a OneRoster client syncs: every page of `users?filter=dateLastModified>'since'`
 * sorted by dateLastModified (a record that changes again moves to the end, so the pages before it
 * stay put), then `since` becomes the newest dateLastModified received.
 */
async function poll(since: string | null, received: Set<string>): Promise<string | null> {
  let newest = since;
  for (let offset = 0; ; offset += 1000) {
    const query = new URLSearchParams({ sort: "dateLastModified", limit: "1000", offset: String(offset) });
    if (since) query.set("filter", `dateLastModified>'${since}'`);
    const answer = await readRostering({ segments: ["users"], query, authorization: `Bearer ${token}` });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    const users = (answer.body as { users: { sourcedId: string; dateLastModified: string }[] }).users;
    for (const user of users) {
      received.add(ids.toGlobal(user.sourcedId)!);
      if (!newest || user.dateLastModified > newest) newest = user.dateLastModified;
    }
    if (users.length < 1000) return newest;
  }
}

const student = async (name: string, tx?: Parameters<typeof createProfile>[1]) =>
  createProfile({ personId: (await createPerson({ name }, tx)).id, institutionId: schoolId, role: "aluno" }, tx);

describe.runIf(!!process.env.DATABASE_URL)("OneRoster delta reads while writers commit concurrently (PostgreSQL)", () => {
  beforeAll(async () => {
    process.env.HUB_BASE_URL = TEST_ISSUER;
    process.env.HUB_SECRET = "oneroster-delta-test-secret-0123456789";
    resetEnvCache();
    // A network of five schools, all read: a delta read of users is six scans, more than a page
    // merges whole under a bound, so each poll first leaves out the scans with no change since
    // its bound (read-rostering.ts, SCANS_WITH_CHANGES_SQL). The writers write in one school.
    const network = await createInstitution({ name: "Rede do Delta", kind: "network" });
    schoolId = (await createInstitution({ name: "Escola do Delta", kind: "school", parentId: network.id })).id;
    for (let i = 1; i < 5; i++) await createInstitution({ name: `Escola Quieta ${i}`, kind: "school", parentId: network.id });
    app = await createTestApp("Edtech Delta");
    await t.db.prisma.edtechLink.create({ data: { institutionId: network.id, edtechId: app.edtechId } });
    await t.db.prisma.applicationAccess.create({ data: { institutionId: network.id, applicationId: app.id, allowedAttributes: ["nome_usuario"], anonymizedAttributes: [], oneRoster: true } });
    token = await oneRosterToken(app);
    ids = await pairwiseIds({ kind: "application", id: app.id });
  });

  it("transactions whose ids are out of their start order: a read while a third is open misses none of them later", async () => {
    const received = new Set<string>();
    let since = await poll(null, received);
    // E2 starts first and holds; E0 starts and commits; E1 starts 400 ms later and commits; then
    // E2 writes (taking the largest id) and commits. Start order E2 < E0 < E1, id order E0 < E1 < E2.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let e2 = "";
    const late = t.db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        await released;
        e2 = (await student("Aluno E2", { tx })).id;
      },
      { timeout: 30_000 },
    );
    await sleep(50);
    const e0 = await student("Aluno E0");
    await sleep(400);
    const e1 = await student("Aluno E1");
    release();
    await late;
    // C opens about a second after a moment between E0's and E1's starts, and stays open while the
    // client reads: the read's T (C's start less a second) falls between them.
    const [starts] = await t.db.prisma.$queryRawUnsafe<{ e0At: Date; e1At: Date }[]>(
      `SELECT (SELECT min("occurredAt") FROM "ChangeEvent" WHERE "recordId" = $1::uuid) AS "e0At", (SELECT min("occurredAt") FROM "ChangeEvent" WHERE "recordId" = $2::uuid) AS "e1At"`,
      e0.id,
      e1.id,
    );
    await sleep(Math.max(0, (starts!.e0At.getTime() + starts!.e1At.getTime()) / 2 + 1000 - Date.now()));
    let closeC!: () => void;
    const cClosed = new Promise<void>((resolve) => (closeC = resolve));
    const c = t.db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        await cClosed;
      },
      { timeout: 30_000 },
    );
    await sleep(100);
    since = await poll(since, received);
    closeC();
    await c;
    // Then as a client polls: until a second after the last commit, plus a margin.
    for (let i = 0; i < 3; i++) {
      await sleep(800);
      since = await poll(since, received);
    }
    for (const [name, id] of [["E0", e0.id], ["E1", e1.id], ["E2", e2]] as const) expect(received.has(id), `${name} was received`).toBe(true);
  }, 60_000);

  it("a 3,000-row import beside short writers: every new user reaches a client polling dateLastModified>", async () => {
    const received = new Set<string>();
    let since: string | null = null;
    const poller = pollUntilQuiet(async () => {
      const before = received.size;
      since = await poll(since, received);
      return received.size - before;
    });
    // The import's transaction starts now and writes (taking its id) 1.5 s later, in 3 batches.
    const importing = lateImport(t.db.prisma, schoolId, { delayMs: 1_500, batches: 3, size: 1_000, pauseMs: 500 });
    const short = (async () => {
      for (let i = 0; i < 12; i++) {
        await sleep(i === 0 ? 1_100 : 300);
        await student(`Aluno Avulso ${i}`);
      }
    })();
    await Promise.all([importing, short]);
    await poller.finish();
    const all = await t.db.prisma.profile.findMany({ where: { institutionId: schoolId }, select: { id: true } });
    expect(all.length).toBeGreaterThanOrEqual(3_000 + 12);
    expect(all.filter((p) => !received.has(p.id))).toEqual([]);
  }, 90_000);
  it("paging past a page of 1,000 through records that share one dateLastModified (one import) lists each once", async () => {
    await importProfiles({ institutionId: schoolId, people: Array.from({ length: 1_500 }, (_, i) => ({ person: { name: `Aluno Lote ${i}` }, role: "aluno" as const })) });
    await sleep(1_200);
    const received = new Set<string>();
    let pages = 0;
    for (let offset = 0; ; offset += 1000) {
      const answer = await readRostering({ segments: ["users"], query: new URLSearchParams({ sort: "dateLastModified", limit: "1000", offset: String(offset) }), authorization: `Bearer ${token}` });
      const users = (answer.body as { users: { sourcedId: string }[] }).users;
      pages += 1;
      for (const user of users) received.add(user.sourcedId);
      if (users.length < 1000) break;
    }
    const all = await t.db.prisma.profile.count({ where: { institutionId: schoolId } });
    expect(pages).toBeGreaterThan(1);
    expect(received.size).toBe(all);
  }, 60_000);
});
