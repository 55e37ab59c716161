// bench/morning/browser.ts (issue #45): what one gallery visit costs the served hub when a real
// browser makes it. bench/morning/run.ts replays each step as one request; a browser also runs the
// page's scripts, and whatever they ask of the server (Next's link prefetches, an RSC payload)
// is load at the bell too. This bench signs a student and a teacher in through the sign-in page in
// Chromium (Debian's, as the browser tests use), then opens each one's gallery --visits times,
// waiting --settle ms after each load for what the page's scripts fetch once it is idle, and
// reports per visit (and the same for a visitor's sign-in page, before anyone signs in):
//   - the requests that reached the hub (Chrome DevTools Protocol: those not served from the
//     browser's cache), by kind: document, prefetch (Next-Router-Prefetch), RSC, static, other;
//   - the hub's CPU (server.mjs) and PostgreSQL's (the bench database's backends), less what the
//     hub spends idle over the same time (its webhook worker polls: measured in a quiet window of
//     the same length right before, with the browser open).
//
//   npx tsx bench/morning/browser.ts                      # embedded database (PGlite)
//   DATABASE_URL=postgresql://postgres:postgres@localhost:5432/postgres npx tsx bench/morning/browser.ts --pg
//   … [--visits 20] [--settle 1500] [--port 3850]
//
// Needs the production build (HUB_NEXT_DIST_DIR picks another build folder, as for `npm start`).
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { chromiumPath } from "../../scripts/lib/chromium.mjs";
import { prepareDatabase, startHub } from "../lib/hub";
import { loadAverage, machineLine, percentile } from "../lib/load";
import { cpuMeter, type TCpuUsed } from "./cpu";
import { MORNING_PASSWORD, setUpClass, type TMorningPerson } from "./setup";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean", default: false },
    visits: { type: "string", default: "20" },
    settle: { type: "string", default: "1500" },
    port: { type: "string", default: "3850" },
  },
});
const engine = values.pg ? "postgres" : "pglite";
const visits = Number(values.visits);
const settleMs = Number(values.settle);
const executablePath = chromiumPath();
if (!executablePath) throw new Error("no Chromium: install Debian's chromium-headless-shell or chromium (see .ci/run)");

console.log(`bench/morning/browser on ${engine}, ${new Date().toISOString()}: ${machineLine()}`);
const env = prepareDatabase("morning_browser", engine, Number(values.port));
const cls = await setUpClass(env, engine);
const hub = await startHub(env);
const databases = env.DATABASE_URL ? [new URL(env.DATABASE_URL).pathname.slice(1)] : [];
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });

type TKind = "document" | "prefetch" | "rsc" | "static" | "other";
const KINDS: TKind[] = ["document", "prefetch", "rsc", "static", "other"];

/** Counts, by kind, the requests of `page` that reached the hub (not answered from the browser's cache). */
async function countServedRequests(page: Page): Promise<Record<TKind, number>> {
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<TKind, number>;
  const pending = new Map<string, TKind>();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.requestWillBeSent", ({ requestId, request, type }) => {
    if (!request.url.startsWith(hub.base)) return;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const kind: TKind = type === "Document" ? "document" : headers["next-router-prefetch"] ? "prefetch" : headers.rsc ? "rsc" : new URL(request.url).pathname.startsWith("/_next/static/") ? "static" : "other";
    pending.set(requestId, kind);
  });
  cdp.on("Network.requestServedFromCache", ({ requestId }) => pending.delete(requestId));
  cdp.on("Network.responseReceived", ({ requestId, response }) => {
    if (response.fromDiskCache || response.fromPrefetchCache) pending.delete(requestId);
  });
  cdp.on("Network.loadingFinished", ({ requestId }) => {
    const kind = pending.get(requestId);
    if (kind) counts[kind]++;
    pending.delete(requestId);
  });
  return counts;
}

async function signIn(page: Page, person: Omit<TMorningPerson, "kind">): Promise<void> {
  await page.goto(`${hub.base}/login`);
  await page.getByLabel("E-mail ou CPF").fill(person.email);
  await page.getByLabel("Senha").fill(MORNING_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  // A teacher has two profiles: the picker, then the first one.
  await page.waitForURL((url) => url.pathname === "/" || url.pathname === "/perfil");
  if (new URL(page.url()).pathname === "/perfil") {
    await page.getByRole("button").filter({ hasText: "Professor" }).first().click();
    await page.waitForURL((url) => url.pathname === "/");
  }
}

const meterOf = () => cpuMeter([hub.server.pid!], databases);
const plus = (a: TCpuUsed, b: TCpuUsed): TCpuUsed => ({ server: a.server + b.server, postgres: a.postgres + b.postgres });
const scaled = (a: TCpuUsed, k: number): TCpuUsed => ({ server: a.server * k, postgres: a.postgres * k });

interface TRow {
  who: string;
  requests: Record<TKind, number>;
  /** Per visit, less idle. */
  cpu: TCpuUsed;
  idlePerSecond: TCpuUsed;
  p50: number;
}

/** `person`'s gallery, visited again and again once signed in; with no person, a visitor's sign-in page. */
async function measure(who: string, person: Omit<TMorningPerson, "kind"> | null): Promise<TRow> {
  const page = await browser.newPage({ locale: "pt-BR", viewport: { width: 1280, height: 900 } });
  if (person) await signIn(page, person);
  const target = `${hub.base}${person ? "/" : "/login"}`;
  // Warm-up: the page's scripts in the browser's cache, the hub's code paths compiled.
  for (let i = 0; i < 3; i++) {
    await page.goto(target);
    await sleep(settleMs);
  }
  const counts = await countServedRequests(page);
  const times: number[] = [];
  let visitsCpu: TCpuUsed = { server: 0, postgres: 0 };
  let idleCpu: TCpuUsed = { server: 0, postgres: 0 };
  let visitsMs = 0;
  let idleMs = 0;
  // Idle and visits in turns, so that the idle rate is the one of the same minutes.
  for (let i = 0; i < visits; i++) {
    const quiet = meterOf();
    const q0 = performance.now();
    await sleep(settleMs);
    idleMs += performance.now() - q0;
    idleCpu = plus(idleCpu, quiet.stop());

    const busy = meterOf();
    const v0 = performance.now();
    const response = await page.goto(target);
    if (response?.status() !== 200) throw new Error(`${who}: ${target} answered ${response?.status()}`);
    times.push(performance.now() - v0);
    await sleep(settleMs);
    visitsMs += performance.now() - v0;
    visitsCpu = plus(visitsCpu, busy.stop());
  }
  await page.close();
  // The idle rate of the quiet windows, over the visits' own time, taken off the visits' CPU.
  const net = plus(visitsCpu, scaled(idleCpu, -visitsMs / idleMs));
  times.sort((a, b) => a - b);
  return {
    who,
    requests: Object.fromEntries(KINDS.map((k) => [k, counts[k] / visits])) as Record<TKind, number>,
    cpu: scaled(net, 1 / visits),
    idlePerSecond: scaled(idleCpu, 1000 / idleMs),
    p50: percentile(times, 0.5),
  };
}

const loadAtStart = loadAverage();
const rows = [await measure("visitor, sign-in page", null), await measure("student, gallery", cls.students[0]!), await measure("teacher, gallery", cls.teachers[0]!)];
await browser.close();
await hub.stop();

const f = (n: number, digits = 1) => n.toFixed(digits);
console.log(`\n${visits} visits each, ${settleMs} ms after each load; load average ${loadAtStart} → ${loadAverage()}`);
console.log(`build: ${process.env.HUB_NEXT_DIST_DIR ?? ".next"}\n`);
console.log(`| who | requests at the hub per visit (${KINDS.join(" / ")}) | hub CPU ms per visit | PostgreSQL CPU ms per visit | idle CPU ms/s (hub / PostgreSQL) | load p50 ms |`);
console.log("|---|---|---:|---:|---|---:|");
for (const r of rows) {
  console.log(`| ${r.who} | ${KINDS.map((k) => f(r.requests[k])).join(" / ")} | ${f(r.cpu.server)} | ${f(r.cpu.postgres)} | ${f(r.idlePerSecond.server)} / ${f(r.idlePerSecond.postgres)} | ${f(r.p50)} |`);
}
