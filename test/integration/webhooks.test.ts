// Issue #20's acceptance: what webhooks deliver is the application's Data API feed, exactly:
// 10,000 school changes, every delivery verified with `standardwebhooks`, no attribute the
// application may not see; a receiver that fails for a while and a worker stopped mid-way lose
// nothing; on PostgreSQL two workers never send a batch twice unless an attempt failed.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decodeCursor, laterPosition } from "@/lib/data-api/cursor";
import { resetEnvCache } from "@/lib/env";
import { database, db } from "@/lib/server/db/database";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { readDataPage, type TDataEvent, type TDataResponse } from "@/lib/server/data-api/read-data-page";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { deleteProfile } from "@/lib/server/school-data/delete-profile";
import { importStudents } from "@/lib/server/school-data/import-students";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { createWebhookEndpoint } from "@/lib/server/webhooks/create-webhook-endpoint";
import { startWebhookWorker, type TWebhookWorker } from "@/lib/server/webhooks/run-webhook-worker";
import { syntheticCpf } from "@/prisma/seed/names";
import { setupTestDatabase } from "@/test/database";
import { createPartner, grantAccess, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";
import { createDeveloper } from "@/test/fixtures/developer";
import { deliveredEvents, deliveryTrace, startReceiver, type TReceiver } from "@/test/fixtures/webhooks";

const t = setupTestDatabase();
const onPostgres = process.env.DATABASE_URL !== undefined;

type TEvent = TDataEvent;

/** The Data API feed of the application at each institution, walked page by page with its key. */
async function feedOf(partner: TPartner, orgIds: string[]): Promise<Map<string, Record<string, TEvent[]>>> {
  const out = new Map<string, Record<string, TEvent[]>>();
  for (const orgId of orgIds) {
    const byEntity: Record<string, TEvent[]> = {};
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { limit: "1000", ...(cursor ? { cursor } : {}) };
      const body: TDataResponse = (await readDataPage({ apiKey: partner.key, orgId, searchParams: new URLSearchParams(query) })).parse();
      for (const [entity, events] of Object.entries(body.dados)) if (events!.length) (byEntity[entity] ??= []).push(...events!);
      cursor = body.paginacao.proximoCursor;
    } while (cursor);
    out.set(orgId, byEntity);
  }
  return out;
}

const count = (feed: Map<string, Record<string, TEvent[]>>) => [...feed.values()].flatMap((e) => Object.values(e)).reduce((n, list) => n + list.length, 0);
const idsOf = (feed: Map<string, Record<string, TEvent[]>>) =>
  new Map([...feed].map(([org, byEntity]) => [org, Object.fromEntries(Object.entries(byEntity).map(([entity, list]) => [entity, list.map((e) => e.id)]))]));

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Every cursor has read past the last event written (call when no write is running), with no
 * failure pending and no claim held.
 */
async function caughtUp(): Promise<boolean> {
  await waitForVisibleEvents();
  const [last] = await database().sql.query<{ txid: string; seq: string }>(`SELECT txid::text, seq::text FROM "ChangeEvent" ORDER BY txid DESC, seq DESC LIMIT 1`);
  const cursors = await database().sql.query<{ position: string | null; failures: number; leaseToken: string | null }>(`SELECT position, failures, "leaseToken" FROM "WebhookCursor"`);
  return cursors.every((c) => {
    const at = c.position ? decodeCursor(c.position) : null;
    return c.failures === 0 && c.leaseToken === null && at !== null && laterPosition(at, last!) === at;
  });
}

const FAST = { idleMs: 50, pollMs: 20, backoffBaseMs: 30, backoffCapMs: 200, syncEveryMs: 100, allowPrivateNetwork: true, batchSize: 500 } as const;

let network = "";
let schoolA = "";
let schoolB = "";
let schoolC = "";
const classes: Record<string, string> = {};

async function writeStudents(institutionId: string, classId: string, n: number, offset: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < n; start += 1000) {
    const students = Array.from({ length: Math.min(1000, n - start) }, (_, j) => {
      const i = offset + start + j;
      return { person: { name: `Aluno ${i}`, cpf: syntheticCpf(i), phone: `1199${String(i).padStart(7, "0")}` }, classId };
    });
    ids.push(...(await importStudents({ institutionId, students })).profileIds);
  }
  return ids;
}

/**
 * Renames (visible), phone changes (hidden from the application) and deletions of some of
 * `profiles`, each its own transaction, four writers at once (as a school's staff would, and so
 * the log interleaves transactions; on PostgreSQL the first test takes 22 s where it took 31 s
 * with one writer).
 */
async function churn(profiles: string[], step: number): Promise<void> {
  const people = await db().profile.findMany({ where: { id: { in: profiles } }, select: { id: true, personId: true } });
  const indexes = Array.from({ length: Math.ceil(people.length / step) }, (_, k) => k * step);
  const change = async (i: number) => {
    const p = people[i]!;
    if (i % (step * 5) === 0) {
      await deleteProfile({ profileId: p.id });
    } else if (i % (step * 3) === 0) {
      // Hidden from the application: not in its feed.
      await updatePerson({ personId: p.personId, changes: { phone: `2198${String(i).padStart(7, "0")}` } });
    } else {
      await updatePerson({ personId: p.personId, changes: { name: `Aluno Renomeado ${i}` } });
    }
  };
  await Promise.all(Array.from({ length: 4 }, async () => {
    for (let i = indexes.shift(); i !== undefined; i = indexes.shift()) await change(i);
  }));
}

beforeAll(async () => {
  process.env.HUB_SECRET = "webhooks-test-secret-0123456789abcdef";
  resetEnvCache();
  network = (await createInstitution({ name: "Rede Webhook", kind: "network" })).id;
  schoolA = (await createInstitution({ name: "Escola A", kind: "school", parentId: network })).id;
  schoolB = (await createInstitution({ name: "Escola B", kind: "school", parentId: network })).id;
  schoolC = (await createInstitution({ name: "Escola C", kind: "school" })).id;
  for (const school of [schoolA, schoolB, schoolC]) {
    const period = await createPeriod({ institutionId: school, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
    classes[school] = (await createClass({ periodId: period.id, name: "Turma 1" })).id;
  }
});

describe("webhooks carry the Data API feed", () => {
  let receiver: TReceiver;
  let worker: TWebhookWorker | undefined;
  let partner: TPartner;
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
  });
  // On a failure, what was delivered and recorded, and the newest transactions of the log.
  beforeEach(({ onTestFailed }) => onTestFailed(async () => console.error(await deliveryTrace(receiver?.received ?? []))));

  it("10,000 school changes: the de-duplicated deliveries equal the feed, each verifies, nothing hidden leaks", async () => {
    const developer = await createDeveloper("Webhook");
    partner = await createPartner("Webhook", developer.edtechId);
    // The network is enabled with names, CPFs anonymized; a school outside it on its own. Phones are never shared.
    await linkEdtech(network, developer.edtechId);
    await linkEdtech(schoolC, developer.edtechId);
    await grantAccess(network, partner.applicationId, { allowed: ["nome_usuario", "cpf"], anonymized: ["cpf"] });
    await grantAccess(schoolA, partner.applicationId, { allowed: ["nome_usuario", "cpf"], anonymized: ["cpf"] }); // below an enabled network: no cursor of its own
    await grantAccess(schoolC, partner.applicationId, { allowed: ["nome_usuario"], anonymized: [] });

    const a = await writeStudents(schoolA, classes[schoolA]!, 2_000, 0);
    const b = await writeStudents(schoolB, classes[schoolB]!, 1_500, 10_000);
    const c = await writeStudents(schoolC, classes[schoolC]!, 1_000, 20_000);
    await churn([...a, ...b, ...c], 4);
    expect(await db().changeEvent.count()).toBeGreaterThanOrEqual(10_000);
    await waitForVisibleEvents();

    receiver = await startReceiver();
    const { secret } = await createWebhookEndpoint({
      actorPersonId: developer.personId, applicationId: partner.applicationId, fields: { url: receiver.url }, allowPrivateNetwork: true,
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    receiver.setSecret(secret);
    const cursors = await db().webhookCursor.findMany({ select: { institutionId: true } });
    expect(cursors.map((x) => x.institutionId).sort()).toEqual([network, schoolC].sort());

    worker = startWebhookWorker(FAST);
    await until(caughtUp, 120_000, "the deliveries");
    await worker.stop();
    worker = undefined;

    const feed = await feedOf(partner, [network, schoolC]);
    expect(count(feed)).toBeGreaterThan(8_000);
    expect(receiver.unverified).toBe(0);
    expect(deliveredEvents(receiver.received)).toEqual(feed);
    // No copy of a batch: the receiver never failed.
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
    // A person's phone is never shared, a CPF only as a pseudonym; the payload is the API's page.
    const all = receiver.received.map((r) => r.body).join("\n");
    expect(all).not.toContain("telefone");
    expect(all).not.toContain("1199000");
    expect(all).not.toContain(syntheticCpf(5));
    expect(receiver.received[0]!.payload).toMatchObject({ type: "dados.alterados", data: { configuracao: expect.any(Object), paginacao: expect.any(Object) } });
    const attempts = await db().webhookAttempt.count({ where: { ok: true } });
    expect(attempts).toBe(receiver.received.length);
  }, 300_000);

  it("a receiver failing for a while, and workers stopped and replaced mid-way: every event arrives, none lost", async () => {
    receiver.received.length = 0;
    await db().webhookCursor.updateMany({ data: { position: null, deliveredAt: null } }); // replay the whole feed from the start
    receiver.failWith = 500;
    worker = startWebhookWorker(FAST);
    const more = writeStudents(schoolB, classes[schoolB]!, 1_000, 30_000); // changes keep coming meanwhile
    await until(() => receiver.received.length >= 6, 30_000, "failing attempts");
    const failedCursor = await db().webhookCursor.findFirst({ where: { failures: { gt: 0 } } });
    expect(failedCursor?.pendingLimit).toBeGreaterThan(0);
    expect(failedCursor?.lastError).toBe("Respondeu 500.");
    receiver.failWith = null;
    await until(() => receiver.received.filter((r) => r.status < 300).length >= 3, 30_000, "recovered deliveries");
    await worker.stop(); // the hub stops mid-way...
    // ...and an instance dies holding a claim: its lease must run out before anyone else sends that batch.
    await database().sql.query(`UPDATE "WebhookCursor" SET "leaseToken" = gen_random_uuid(), "leaseUntil" = now() + interval '1 second' WHERE id = (SELECT id FROM "WebhookCursor" LIMIT 1)`);
    await more;
    worker = startWebhookWorker({ ...FAST, worker: "replacement" });
    await until(caughtUp, 120_000, "the deliveries after the restart");
    await worker.stop();
    worker = undefined;

    expect(receiver.unverified).toBe(0);
    const feed = await feedOf(partner, [network, schoolC]);
    expect(idsOf(deliveredEvents(receiver.received))).toEqual(idsOf(feed));
    // A batch sent again only after a failed attempt, with the same webhook-id and the same events.
    const byId = new Map<string, typeof receiver.received>();
    for (const r of receiver.received) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
    for (const copies of byId.values()) {
      expect(copies.filter((r) => r.status < 300)).toHaveLength(1);
      expect(copies.slice(0, -1).every((r) => r.status >= 300)).toBe(true);
      const ids = (r: (typeof copies)[number]) => Object.values(r.payload.data.dados).flat().map((e) => e!.id);
      for (const copy of copies) expect(ids(copy)).toEqual(ids(copies[0]!));
    }
    expect([...byId.values()].some((copies) => copies.length > 1)).toBe(true);
  }, 300_000);

  /**
   * A worker in a process of its own on this test's database (test/fixtures/webhook-worker-process.ts).
   * Its lease is the product's 60 s unless `leaseMs` says otherwise: "never twice" holds while a
   * step (read and POST) ends within its lease, and on a loaded machine a process's first steps took
   * more than 2 s, so a second process took the claim over and sent the batch again.
   */
  async function workerProcess(name: string, leaseMs?: number): Promise<ChildProcess> {
    // node itself (tsx as its loader), not npx: a signal must reach the process that delivers.
    const options = { ...FAST, worker: name, batchSize: 100, concurrency: 2, ...(leaseMs ? { leaseMs } : {}) };
    const child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/webhook-worker-process.ts"], {
      env: { ...process.env, DATABASE_URL: t.url, WORKER_OPTIONS: JSON.stringify(options) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    await until(() => out.includes("ready") || child.exitCode !== null, 60_000, `worker process ${name}`);
    expect(child.exitCode).toBeNull();
    return child;
  }
  const stopProcess = async (child: ChildProcess, signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill(signal);
    await exited;
  };
  const attemptsBy = async (workers: string[]) =>
    (await database().sql.query<{ worker: string }>(`SELECT DISTINCT worker FROM "WebhookAttempt" WHERE worker = ANY($1::text[])`, [workers])).map((r) => r.worker).sort();

  it.runIf(onPostgres)("hub processes: two at once never send a batch twice; one killed with SIGKILL mid-way and started again loses nothing", async () => {
    // Two processes, one database: every batch once.
    receiver.received.length = 0;
    await db().webhookCursor.updateMany({ data: { position: null, deliveredAt: null } });
    const [one, two] = await Promise.all([workerProcess("process-one"), workerProcess("process-two")]);
    await until(caughtUp, 120_000, "the deliveries of two processes");
    await Promise.all([stopProcess(one, "SIGTERM"), stopProcess(two, "SIGTERM")]);
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await attemptsBy(["process-one", "process-two"])).toEqual(["process-one", "process-two"]);
    expect(idsOf(deliveredEvents(receiver.received))).toEqual(idsOf(await feedOf(partner, [network, schoolC])));

    // A receiver failing for a while, a process killed without warning while it delivers and
    // changes being written meanwhile; another process started: every event arrives.
    receiver.received.length = 0;
    await db().webhookCursor.updateMany({ data: { position: null, deliveredAt: null } });
    receiver.failWith = 500;
    // A short lease: what it holds when killed is claimable 2 s later, not 60.
    const doomed = await workerProcess("process-killed", 2_000);
    const more = writeStudents(schoolB, classes[schoolB]!, 500, 40_000);
    await until(() => receiver.received.length >= 4, 30_000, "failing attempts");
    receiver.failWith = null;
    await until(() => receiver.received.filter((r) => r.status < 300).length >= 5, 30_000, "deliveries after the recovery");
    await stopProcess(doomed, "SIGKILL");
    await more;
    const restarted = await workerProcess("process-restarted");
    await until(caughtUp, 120_000, "the deliveries after the restart");
    await stopProcess(restarted, "SIGTERM");
    expect(receiver.unverified).toBe(0);
    expect(await attemptsBy(["process-killed", "process-restarted"])).toEqual(["process-killed", "process-restarted"]);
    expect(idsOf(deliveredEvents(receiver.received))).toEqual(idsOf(await feedOf(partner, [network, schoolC])));
  }, 300_000);

  it.runIf(onPostgres)("two workers on one PostgreSQL never send a batch twice", async () => {
    receiver.received.length = 0;
    await db().webhookCursor.updateMany({ data: { position: null, deliveredAt: null } });
    const one = startWebhookWorker({ ...FAST, worker: "one", batchSize: 100, concurrency: 3 });
    const two = startWebhookWorker({ ...FAST, worker: "two", batchSize: 100, concurrency: 3 });
    await until(caughtUp, 120_000, "the deliveries of two workers");
    await Promise.all([one.stop(), two.stop()]);
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const workers = await database().sql.query<{ worker: string }>(`SELECT DISTINCT worker FROM "WebhookAttempt" WHERE worker IN ('one', 'two')`);
    expect(workers).toHaveLength(2);
    const feed = await feedOf(partner, [network, schoolC]);
    expect(idsOf(deliveredEvents(receiver.received))).toEqual(idsOf(feed));
  }, 300_000);
});
