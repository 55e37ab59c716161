// `npm run fuzz -- [--requests N] [--seed S] [--base URL] [--concurrency C] [--out FILE]`: the long
// fuzz run against a hub already served (npm start, by default http://localhost:3000). Prints
// the per-route table and every problem; exits 1 if any 5xx, reset or slow answer was seen.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { routesOf } from "./cases";
import { demoFuzzContext, reportTable, runFuzz, type TFuzzProblem } from "./run-fuzz";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "100000" },
    seed: { type: "string", default: String(Date.now() % 1_000_000) },
    base: { type: "string", default: "http://localhost:3000" },
    concurrency: { type: "string", default: "4" },
    out: { type: "string" },
  },
});
const base = values.base.replace(/\/+$/, "");
const requests = Number(values.requests);
const seed = Number(values.seed);

const { context, readSummaries } = await demoFuzzContext(base);
const before = await readSummaries();

const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`fuzz: ${requests} requests to ${base}, seed ${seed}, ${context.ids.length} known ids, load ${load()}`);
const report = await runFuzz({
  base,
  routes: routesOf(),
  context,
  requests,
  seed,
  concurrency: Number(values.concurrency),
  onProgress: (done) => done % 10_000 === 0 && console.log(`  ${done} sent`),
});
const unchanged = JSON.stringify(await readSummaries()) === JSON.stringify(before);
const statuses: Record<string, number> = {};
for (const route of Object.values(report.byRoute)) for (const [s, n] of Object.entries(route)) statuses[s] = (statuses[s] ?? 0) + n;
const line = (p: TFuzzProblem) => `  #${p.index} ${p.request.method} ${p.request.path.slice(0, 160)} → ${p.status ?? p.error} (${p.ms} ms, body ${p.request.bodyBytes} B) ${JSON.stringify(p.request.headers).slice(0, 200)}${p.previousOnConnection ? `\n      after, on the same connection: ${p.previousOnConnection}` : ""}`;
const text = [
  `Seed ${seed}: ${report.requests} requests in ${(report.ms / 1000).toFixed(0)} s (${Math.round(report.requests / (report.ms / 1000))}/s), load average after ${load()}`,
  `Statuses: ${Object.entries(statuses).sort().map(([s, n]) => `${s}: ${n}`).join(", ")}`,
  `5xx: ${report.serverErrors.length}; connection errors: ${report.resets.length}; slower than 5 s: ${report.slow.length}; school data unchanged: ${unchanged}`,
  ...report.serverErrors.slice(0, 40).map(line),
  ...report.resets.slice(0, 20).map(line),
  ...report.slow.slice(0, 20).map(line),
  "",
  reportTable(report),
].join("\n");
console.log(text);
if (values.out) writeFileSync(values.out, text);
process.exit(report.serverErrors.length || report.resets.length || report.slow.length || !unchanged ? 1 : 0);
