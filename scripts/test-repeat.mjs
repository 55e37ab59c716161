// Flake check: `npm run test:repeat -- N` runs the browser tests N times on a fresh build and
// lists every failure by test name. `--all` repeats the whole `npm test` instead (lint, types,
// Vitest, browser tests); `--load` keeps every core busy with a CPU-bound process meanwhile.
// Each run's output is kept in .tmp/repeat/run-K.log; the summary goes to .tmp/repeat/summary.md.
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, createWriteStream } from "node:fs";
import path from "node:path";
import { ensureBuilt, ensureGenerated, ensureInstalled, root } from "./lib/steps.mjs";

const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const all = args.includes("--all");
const load = args.includes("--load");
if (!Number.isInteger(runs) || runs < 1) {
  console.error("usage: npm run test:repeat -- N [--all] [--load]");
  process.exit(2);
}

const outDir = path.join(root, ".tmp", "repeat");
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

ensureInstalled();
ensureGenerated();
if (!all) {
  // A fresh build: forget the last one, so this check also covers what `next build` makes now.
  rmSync(path.join(root, process.env.HUB_NEXT_DIST_DIR || ".next", "hub-source-hash"), { force: true });
  ensureBuilt();
}

/** One CPU-bound process per core, as a `stress --cpu N` would, for the whole check. */
const burners = load
  ? cpus().map(() => spawn(process.execPath, ["-e", "for (;;) Math.sqrt(Math.random());"], { stdio: "ignore" }))
  : [];
const stopBurners = () => burners.forEach((b) => b.kill("SIGKILL"));
process.on("exit", stopBurners);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

function runOnce(k) {
  const log = path.join(outDir, `run-${k}.log`);
  const report = path.join(outDir, `run-${k}.json`);
  const [cmd, cmdArgs] = all ? ["npm", ["test"]] : ["npx", ["playwright", "test", "--reporter=list,json"]];
  return new Promise((resolve) => {
    const started = Date.now();
    const out = createWriteStream(log);
    const child = spawn(cmd, cmdArgs, { cwd: root, env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report, E2E_JSON_REPORT: report }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on("close", (code) => {
      out.end();
      resolve({ k, code, seconds: (Date.now() - started) / 1000, failures: failuresOf(report, log), load: loadavg()[0] });
    });
  });
}

/** Failed tests by name: from Playwright's JSON report, else the runners' failure lines. */
function failuresOf(report, log) {
  const names = [];
  if (existsSync(report)) {
    const visit = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) if (t.status === "unexpected" || t.status === "flaky") names.push([...titles, spec.title].filter(Boolean).join(" › ") + ` (${spec.file}:${spec.line})`);
      }
      for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
    };
    for (const suite of JSON.parse(readFileSync(report, "utf8")).suites ?? []) visit(suite, []);
  }
  const text = readFileSync(log, "utf8").replace(/\u001b\[[0-9;]*m/g, "");
  for (const line of text.split("\n")) {
    if (/^\s*(FAIL|×|✘)\s/.test(line) && !names.some((n) => line.includes(n.split(" (")[0]))) names.push(line.trim());
  }
  return [...new Set(names)];
}

const results = [];
for (let k = 1; k <= runs; k++) {
  const r = await runOnce(k);
  results.push(r);
  const verdict = r.code === 0 ? "passed" : `FAILED (exit ${r.code})`;
  console.log(`run ${k}/${runs}: ${verdict} in ${r.seconds.toFixed(0)} s, load average ${r.load.toFixed(2)}`);
  for (const name of r.failures) console.log(`    ✘ ${name}`);
  if (r.code !== 0 && r.failures.length === 0) console.log(`    (no test named; see ${path.relative(root, path.join(outDir, `run-${k}.log`))})`);
}
stopBurners();

const failed = results.filter((r) => r.code !== 0);
const seconds = results.map((r) => r.seconds).sort((a, b) => a - b);
const summary = [
  `# ${all ? "npm test" : "e2e suite"} × ${runs}${load ? ", every core kept busy by another process" : ""}`,
  "",
  `${runs - failed.length} passed, ${failed.length} failed; duration min ${seconds[0].toFixed(0)} s, median ${seconds[Math.floor(seconds.length / 2)].toFixed(0)} s, max ${seconds.at(-1).toFixed(0)} s; ${cpus().length} cores.`,
  "",
  "| run | result | seconds | load average (1 min) | failed tests |",
  "|---|---|---|---|---|",
  ...results.map((r) => `| ${r.k} | ${r.code === 0 ? "passed" : "failed"} | ${r.seconds.toFixed(0)} | ${r.load.toFixed(2)} | ${r.failures.join("; ")} |`),
  "",
].join("\n");
writeFileSync(path.join(outDir, "summary.md"), summary);
console.log(`\n${summary}`);
console.log(`${runs - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
