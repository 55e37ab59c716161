// The Data API's guarantee on a real streaming replica (docs/decisions/042-read-replicas.md):
// gap-free paging (decision 003) and min_date polling (decision 013) read through a hot standby of
// the test cluster while writers commit on the primary, with the standby's replay paused and resumed
// in the middle; a cursor taken on the primary continues on the replica; a replica past the lag
// bound is not read. OneRoster's delta reads (issue #43) go through the same replica. PostgreSQL only: PGlite has no server to replicate, so these are skipped there.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { createDatabase, database, replicaLagSeconds, setDatabase, type Database } from "@/lib/server/db/database";
import { readsMayLag } from "@/lib/server/db/replicas";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { withGlobalIds } from "@/test/fixtures/pairwise";
import { setupTestDatabase } from "@/test/database";
import { startReplica, type TestReplica } from "@/test/replica";
import { createPartner, grantAccess, linkEdtech, type TPartner } from "@/test/fixtures/data-api";
import { earlyWriter, lateImport, pollWithMinDate, readFeed } from "@/test/fixtures/min-date-polling";
import { readDataPage, type TDataResponse } from "./read-data-page";
import { ALL_ONEROSTER_SCOPES } from "@/lib/oneroster/scopes";
import { readRosteringAs } from "@/lib/server/oneroster/read-rostering";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";

const t = setupTestDatabase();
const onPostgres = !!process.env.DATABASE_URL;
/** The bound the tests use: short, so a paused replay passes it within the test. */
const MAX_LAG_MS = 1_500;

let replica: TestReplica;
let withReplicas: Database;
let schoolId = "";
let partner: TPartner;

const ids = (body: TDataResponse) => Object.values(body.dados).flatMap((list) => list!.map((e) => e.id));

async function page(cursor: string | null, limit: number): Promise<TDataResponse> {
  const searchParams = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
  return withGlobalIds(partner.applicationId, (await readDataPage({ apiKey: partner.key, orgId: schoolId, searchParams })).parse());
}

/** Whether a read that may lag is answered by a replica right now. */
const readsFromReplica = () => readsMayLag(async () => database("may-lag") !== withReplicas);

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Short writers on the primary, one event each, every `everyMs` until `stop()`; returns how many. */
function writers(count: number, everyMs: number, label: string) {
  let stopped = false;
  let written = 0;
  const loops = Array.from({ length: count }, async (_, w) => {
    while (!stopped) {
      await createProfile({ personId: (await createPerson({ name: `${label} ${w}-${written}` })).id, institutionId: schoolId, role: "aluno" });
      written += 1;
      await sleep(everyMs);
    }
  });
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return written;
    },
  };
}

async function allEventIds(): Promise<string[]> {
  const rows = await t.db.prisma.changeEvent.findMany({ where: { institutionId: schoolId }, select: { id: true } });
  return rows.map((r) => r.id);
}

describe.runIf(onPostgres)("the Data API on a streaming replica, replay paused and resumed (PostgreSQL)", () => {
  beforeAll(async () => {
    process.env.HUB_SECRET = "replica-concurrency-test-secret-0123456789";
    resetEnvCache();
    // The file's database exists before the base backup, so the standby has it.
    replica = await startReplica(process.env.DATABASE_URL!);
    withReplicas = createDatabase({ url: t.url!, replicaUrls: [replica.urlFor(t.url!)], maxReplicaLagMs: MAX_LAG_MS, replicaBeatMs: 200 });
    schoolId = (await createInstitution({ name: "Escola Réplica", kind: "school" })).id;
    partner = await createPartner("Edtech Réplica");
    await linkEdtech(schoolId, partner.edtechId);
    await grantAccess(schoolId, partner.applicationId, { allowed: ["nome_usuario", "telefone"], anonymized: [] });
  }, 300_000);

  afterAll(async () => {
    await flushAccessLogs();
    setDatabase(t.db);
    await withReplicas?.close();
    await replica?.stop();
  });

  it("on the standby, the horizon stays below a transaction the primary has not committed", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: (txid: string) => void;
    const open = new Promise<string>((resolve) => (started = resolve));
    const writing = t.db.prisma.$transaction(
      async (tx) => {
        await createPerson({ name: "Aluna Aberta" }, { tx });
        const [row] = await tx.$queryRawUnsafe<{ x: string }[]>(`SELECT pg_current_xact_id()::text AS x`);
        started(row!.x);
        await released;
      },
      { timeout: 20_000 },
    );
    const txid = BigInt(await open);
    // A later commit on the primary, replayed on the standby: its snapshot's xmax passes the open one.
    await createPerson({ name: "Aluno Seguinte" });
    await until(async () => BigInt((await replica.query<{ x: string }>(t.url!, `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x`))[0]!.x) > txid + 1n, 10_000, "replay");
    const [standby] = await replica.query<{ h: string }>(t.url!, `SELECT "hub_feed_horizon"()::text AS h`);
    expect(BigInt(standby!.h)).toBeLessThanOrEqual(txid);
    release();
    await writing;
  });

  it("a cursor from the primary continues on the replica under writers and a paused replay: nothing lost, nothing repeated", async () => {
    const seen: string[] = [];
    // The first pages on the primary alone (a hub without replicas).
    const first = writers(3, 40, "Aluno Primário");
    setDatabase(t.db);
    let cursor: string | null = null;
    for (let i = 0; i < 4; i++) {
      const body = await page(cursor, 5);
      seen.push(...ids(body));
      cursor = body.paginacao.proximoCursor ?? body.paginacao.cursorRetomada;
      await sleep(50);
    }
    // The same cursor, now read by a hub whose reads go to the replica.
    setDatabase(withReplicas);
    await until(readsFromReplica, 20_000, "the replica to be within the bound");
    const reader = async (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        const body = await page(cursor, 7);
        seen.push(...ids(body));
        cursor = body.paginacao.proximoCursor ?? body.paginacao.cursorRetomada;
        await sleep(30);
      }
    };
    await reader(800);
    expect(await readsFromReplica()).toBe(true);

    // Replay paused: the replica falls behind the primary's writers (and behind cursors the
    // primary gave); its pages are correct but older, then past the bound it is not read.
    await replica.query(t.url!, "SELECT pg_wal_replay_pause()");
    await reader(600);
    await until(async () => !(await readsFromReplica()), 10_000, "the lag bound to send reads to the primary");
    const [lag] = await replicaLagSeconds();
    expect(lag!.seconds).toBeGreaterThan(MAX_LAG_MS / 1000);
    await reader(600);
    await replica.query(t.url!, "SELECT pg_wal_replay_resume()");
    await reader(600);
    const written = await first.stop();
    await until(readsFromReplica, 20_000, "the replica to catch up");

    // Drain: everything the primary committed arrives, through the replica.
    const all = await allEventIds();
    await until(
      async () => {
        await reader(200);
        return all.every((id) => seen.includes(id));
      },
      30_000,
      "every event",
    );
    expect(written).toBeGreaterThan(10);
    expect(new Set(seen).size).toBe(seen.length);
    expect(all.filter((id) => !seen.includes(id))).toEqual([]);
  }, 120_000);

  it("min_date polling through the replica, with a late import and a paused replay, loses nothing", async () => {
    setDatabase(withReplicas);
    const existing = await createProfile({ personId: (await createPerson({ name: "Aluna Antiga" })).id, institutionId: schoolId, role: "aluno" });
    const poller = pollWithMinDate((minDate) => readFeed(partner, schoolId, minDate));

    // An import whose transaction starts now and writes 1.2 s later; a writer that takes its xid
    // first and writes late; short writers around them; replay paused for a while in the middle.
    const importing = lateImport(t.db.prisma, schoolId, { delayMs: 1_200, batches: 2, size: 500, pauseMs: 500 });
    const early = earlyWriter(t.db.prisma, existing.id, 1_000);
    const short = writers(2, 250, "Aluno Avulso");
    await sleep(700);
    await replica.query(t.url!, "SELECT pg_wal_replay_pause()");
    await sleep(1_500);
    await replica.query(t.url!, "SELECT pg_wal_replay_resume()");
    await Promise.all([importing, early]);
    await short.stop();
    await until(readsFromReplica, 20_000, "the replica to catch up");
    await poller.finish();

    const all = await allEventIds();
    expect(all.length).toBeGreaterThan(1_000);
    expect(all.filter((id) => !poller.received.has(id))).toEqual([]);
  }, 120_000);

  it("OneRoster: a client polling dateLastModified> through the replica, replay paused and resumed, loses no user", async () => {
    setDatabase(withReplicas);
    await t.db.prisma.applicationAccess.updateMany({ where: { applicationId: partner.applicationId }, data: { oneRoster: true } });
    await until(readsFromReplica, 20_000, "the replica to be within the bound");
    const translate = await pairwiseIds({ kind: "application", id: partner.applicationId });
    const client = { clientId: partner.clientId, scopes: new Set(ALL_ONEROSTER_SCOPES) };
    const received = new Set<string>();
    let since: string | null = null;
    /** Every page of users?filter=dateLastModified>'since' by dateLastModified, then since = the newest seen. */
    let fromReplica = 0;
    const poll = async () => {
      const from = since;
      for (let offset = 0; ; offset += 1000) {
        const query = new URLSearchParams({ sort: "dateLastModified", limit: "1000", offset: String(offset), ...(from ? { filter: `dateLastModified>'${from}'` } : {}) });
        if (await readsFromReplica()) fromReplica += 1;
        const answer = await readRosteringAs(client, { segments: ["users"], query });
        expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
        const users = (answer.body as { users: { sourcedId: string; dateLastModified: string }[] }).users;
        for (const user of users) {
          received.add(translate.toGlobal(user.sourcedId)!);
          if (!since || user.dateLastModified > since) since = user.dateLastModified;
        }
        if (users.length < 1000) return;
      }
    };
    const pollFor = async (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        await poll();
        await sleep(150);
      }
    };
    const short = writers(3, 60, "Aluno OneRoster");
    await pollFor(1_000);
    await replica.query(t.url!, "SELECT pg_wal_replay_pause()");
    // Past the bound (1.5 s) the reads go to the primary; T comes from the server that answers.
    await pollFor(2_500);
    await replica.query(t.url!, "SELECT pg_wal_replay_resume()");
    await pollFor(1_000);
    await short.stop();
    await until(readsFromReplica, 20_000, "the replica to catch up");
    for (let i = 0; i < 3; i++) {
      await sleep(800);
      await poll();
    }
    const profiles = await t.db.prisma.profile.findMany({ where: { institutionId: schoolId }, select: { id: true } });
    expect(profiles.length).toBeGreaterThan(20);
    expect(fromReplica, "pages asked while the replica was within the bound").toBeGreaterThan(0);
    expect(profiles.filter((p) => !received.has(p.id))).toEqual([]);
  }, 120_000);
});
