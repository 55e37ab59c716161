// What quiet webhook cursors cost (docs/performance.md, "Webhooks"; decision 026, amendment): a
// network of quiet schools, each enabled on its own so each has its own cursor, all caught up;
// then two loops of the hub's own delivery step (as the worker runs them, production settings)
// for --seconds, while nothing is written. Prints the polls a second and the CPU per poll of this
// process and of PostgreSQL (all its processes, from /proc).
//
//   DATABASE_URL=postgresql://postgres:postgres@localhost:5432/postgres npx tsx bench/webhooks/idle.ts [--schools 20] [--seconds 15]
import { parseArgs } from "node:util";
import { resetEnvCache } from "@/lib/env";
import { setDatabase } from "@/lib/server/db/database";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { importStudents } from "@/lib/server/school-data/import-students";
import { createWebhookEndpoint } from "@/lib/server/webhooks/create-webhook-endpoint";
import { DEFAULT_DELIVERY_SETTINGS, deliverNextBatch, type TStepResult } from "@/lib/server/webhooks/deliver-next-batch";
import { syncWebhookCursors } from "@/lib/server/webhooks/sync-webhook-cursors";
import { syntheticCpf } from "@/prisma/seed/names";
import { openTestDatabase } from "@/test/database";
import { createPartner, grantAccess, linkEdtech } from "@/test/fixtures/data-api";
import { createDeveloper } from "@/test/fixtures/developer";
import { startReceiver } from "@/test/fixtures/webhooks";
import { loadAverage, postgresCpuSeconds } from "../lib/load";

const { values: args } = parseArgs({ options: { schools: { type: "string", default: "20" }, seconds: { type: "string", default: "15" } } });
const schools = Number(args.schools);
const seconds = Number(args.seconds);
if (!process.env.DATABASE_URL) throw new Error("bench/webhooks/idle.ts measures PostgreSQL's CPU: set DATABASE_URL");

process.env.HUB_SECRET ??= "bench-webhooks-secret-0123456789abcdef";
process.env.LOG_LEVEL ??= "warn";
resetEnvCache();
const opened = await openTestDatabase();
setDatabase(opened.db);

const developer = await createDeveloper("Bench");
const partner = await createPartner("Bench", developer.edtechId);
const network = (await createInstitution({ name: "Rede Bench", kind: "network" })).id;
for (let i = 0; i < schools; i++) {
  const school = (await createInstitution({ name: `Escola ${i}`, kind: "school", parentId: network })).id;
  await linkEdtech(school, developer.edtechId);
  await grantAccess(school, partner.applicationId, { allowed: ["nome_usuario"], anonymized: [] });
  const period = await createPeriod({ institutionId: school, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
  const classId = (await createClass({ periodId: period.id, name: "Turma" })).id;
  const students = Array.from({ length: 20 }, (_, j) => ({ person: { name: `Aluno ${i}.${j}`, cpf: syntheticCpf(i * 100 + j) }, classId }));
  await importStudents({ institutionId: school, students });
}
const receiver = await startReceiver();
const { secret } = await createWebhookEndpoint({ actorPersonId: developer.personId, applicationId: partner.applicationId, fields: { url: receiver.url }, allowPrivateNetwork: true });
receiver.setSecret(secret);
await syncWebhookCursors();

const settings = { ...DEFAULT_DELIVERY_SETTINGS, worker: "bench", allowPrivateNetwork: true };
const pause = () => new Promise((resolve) => setTimeout(resolve, 200)); // the worker's pollMs
/** Two loops of delivery steps until `until`, as run-webhook-worker.ts runs them. */
async function run(until: number, counts: Partial<Record<TStepResult, number>> = {}) {
  const loop = async () => {
    while (Date.now() < until) {
      const result = await deliverNextBatch(settings);
      counts[result] = (counts[result] ?? 0) + 1;
      if (result === "none") await pause();
    }
  };
  await Promise.all([loop(), loop()]);
  return counts;
}
// Deliver everything, then 5 s untimed, so the figures are those of quiet cursors.
await run(Date.now() + 5_000);
if (receiver.received.length < schools) throw new Error(`only ${receiver.received.length} of ${schools} schools were delivered`);

const load = loadAverage();
const postgres0 = postgresCpuSeconds();
const cpu0 = process.cpuUsage();
const counts = await run(Date.now() + seconds * 1_000);
const cpu = process.cpuUsage(cpu0);
const postgresMs = (postgresCpuSeconds() - postgres0) * 1000;
const polls = (counts.idle ?? 0) + (counts.caught_up ?? 0);
console.log(`bench/webhooks/idle: ${schools} quiet cursors, ${seconds} s, load average ${load}`);
console.log(`steps: ${JSON.stringify(counts)}`);
console.log("| quiet polls a second | this process's CPU ms per poll | PostgreSQL's CPU ms per poll |");
console.log("|---:|---:|---:|");
console.log(`| ${(polls / seconds).toFixed(1)} | ${((cpu.user + cpu.system) / 1000 / polls).toFixed(2)} | ${(postgresMs / polls).toFixed(2)} |`);
await receiver.close();
await opened.close();
process.exit(0);
