// Webhook delivery (issue #20; docs/performance.md, "Webhooks"): throughput and lag from commit to
// receipt, in one process with the hub's own worker and a loopback receiver that verifies every
// delivery with `standardwebhooks`, on a fresh database (PostgreSQL when DATABASE_URL is set, a
// new database created and dropped; PGlite in memory otherwise).
//
//   DATABASE_URL=postgresql://postgres:postgres@localhost:5432/postgres npx tsx bench/webhooks/run.ts [--rate 100] [--seconds 30] [--backlog 20000]
//
// 1. Lag: one writer commits 10 events every 100 ms (3 new enrolled students, then 4 renames in a
//    second transaction, through lib/server/school-data) while the worker (production settings) delivers. The lag
//    of an event is the time from its transaction's commit to the receipt of the batch that holds
//    it; one writer commits in feed order, so the n-th event delivered is the n-th written.
// 2. Throughput: a backlog written with the worker stopped, then delivered from start to end.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { resetEnvCache } from "@/lib/env";
import { db, setDatabase } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { importStudents } from "@/lib/server/school-data/import-students";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { createWebhookEndpoint } from "@/lib/server/webhooks/create-webhook-endpoint";
import { startWebhookWorker } from "@/lib/server/webhooks/run-webhook-worker";
import { openTestDatabase } from "@/test/database";
import { createPartner, grantAccess, linkEdtech } from "@/test/fixtures/data-api";
import { createDeveloper } from "@/test/fixtures/developer";
import { startReceiver } from "@/test/fixtures/webhooks";

const { values: args } = parseArgs({ options: { rate: { type: "string", default: "100" }, seconds: { type: "string", default: "30" }, backlog: { type: "string", default: "20000" } } });
const rate = Number(args.rate);
const seconds = Number(args.seconds);
const backlog = Number(args.backlog);
const TICK_MS = 100;
const perTick = Math.round((rate * TICK_MS) / 1000);

process.env.HUB_SECRET ??= "bench-webhooks-secret-0123456789abcdef";
process.env.LOG_LEVEL ??= "warn";
resetEnvCache();
const opened = await openTestDatabase();
setDatabase(opened.db);
const engine = opened.url ? "PostgreSQL" : "PGlite";

const developer = await createDeveloper("Bench");
const partner = await createPartner("Bench", developer.edtechId);
const school = (await createInstitution({ name: "Escola Bench", kind: "school" })).id;
await linkEdtech(school, developer.edtechId);
await grantAccess(school, partner.applicationId, { allowed: ["nome_usuario", "email_usuario"], anonymized: ["email_usuario"] });
const period = await createPeriod({ institutionId: school, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
const classId = (await createClass({ periodId: period.id, name: "Turma Bench" })).id;

const receiver = await startReceiver();
const { secret } = await createWebhookEndpoint({ actorPersonId: developer.personId, applicationId: partner.applicationId, fields: { url: receiver.url }, allowPrivateNetwork: true });
receiver.setSecret(secret);
const eventsIn = (i: number) => Object.values(receiver.received[i]!.payload.data.dados).reduce((n, list) => n + (list?.length ?? 0), 0);
let counted = 0;
let delivered = 0;
const deliveredNow = () => {
  for (; counted < receiver.received.length; counted++) delivered += eventsIn(counted);
  return delivered;
};
const until = async (target: number, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (deliveredNow() < target) {
    if (Date.now() > deadline) throw new Error(`only ${deliveredNow()} of ${target} events delivered`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

let serial = 0;
const people: string[] = [];
/** `n` events in two transactions: new enrolled students (2 events each), then renames (1 each). */
async function tick(n: number): Promise<number> {
  const renames = Math.min(people.length, Math.floor(n * 0.4));
  const fresh = Math.ceil((n - renames) / 2);
  const { profileIds } = await importStudents({ institutionId: school, students: Array.from({ length: fresh }, () => ({ person: { name: `Aluno ${++serial}`, email: `a${serial}@bench.test` }, classId })) });
  const rows = await db().profile.findMany({ where: { id: { in: profileIds } }, select: { personId: true } });
  await transaction(async (tx) => {
    for (let k = 0; k < renames; k++) await updatePerson({ personId: people[(serial * 7 + k) % people.length]!, changes: { name: `Renomeado ${++serial}` } }, { tx });
  });
  people.push(...rows.map((r) => r.personId));
  return 2 * fresh + renames;
}

// Start: the setup's events delivered, then the lag run.
let worker = startWebhookWorker({ allowPrivateNetwork: true });
await until(await db().changeEvent.count(), 30_000);
const base = deliveredNow();
const commits: Array<{ upTo: number; at: number }> = [];
let written = base;
const started = Date.now();
for (let i = 0; Date.now() - started < seconds * 1000; i++) {
  const due = started + i * TICK_MS;
  if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
  written += await tick(perTick);
  commits.push({ upTo: written, at: Date.now() });
}
const achieved = ((written - base) / (Date.now() - started)) * 1000;
await until(written, 60_000);
const arrivals: Array<{ upTo: number; at: number }> = [];
let sum = 0;
for (let i = 0; i < receiver.received.length; i++) {
  sum += eventsIn(i);
  arrivals.push({ upTo: sum, at: receiver.received[i]!.receivedAt });
}
const lags: number[] = [];
let a = 0;
for (let c = 0; c < commits.length; c++) {
  while (arrivals[a]!.upTo < commits[c]!.upTo) a++;
  const events = commits[c]!.upTo - (c === 0 ? base : commits[c - 1]!.upTo);
  for (let k = 0; k < events; k++) lags.push(arrivals[a]!.at - commits[c]!.at);
}
lags.sort((x, y) => x - y);
const pct = (p: number) => lags[Math.min(lags.length - 1, Math.floor(lags.length * p))]!;
const lagBatches = receiver.received.length;
const load1 = loadavg()[0]!.toFixed(2);

// Throughput: a backlog written while no worker runs, then delivered.
await worker.stop();
const before = deliveredNow();
for (let left = backlog; left > 0; left -= 2 * Math.min(2_500, left / 2)) {
  const n = Math.max(1, Math.min(2_500, Math.floor(left / 2)));
  await importStudents({ institutionId: school, students: Array.from({ length: n }, () => ({ person: { name: `Aluno ${++serial}`, email: `a${serial}@bench.test` }, classId })) });
  written += 2 * n;
}
const t0 = Date.now();
worker = startWebhookWorker({ allowPrivateNetwork: true });
await until(written, 300_000);
const throughputMs = Date.now() - t0;
await worker.stop();

console.log(JSON.stringify({
  engine,
  loadAverage1mAtLagRun: Number(load1),
  lag: { targetRate: rate, achievedRate: Math.round(achieved), seconds, events: lags.length, batches: lagBatches, p50Ms: pct(0.5), p90Ms: pct(0.9), p99Ms: pct(0.99), maxMs: lags.at(-1) },
  throughput: { events: written - before, ms: throughputMs, eventsPerSecond: Math.round(((written - before) / throughputMs) * 1000), batches: receiver.received.length - lagBatches },
  unverified: receiver.unverified,
}, null, 2));
await receiver.close();
await opened.close();
