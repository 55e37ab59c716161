// bench/hot-routes/layer.ts: what the served hub's per-request layer costs (server.mjs: the request
// id and its AsyncLocalStorage, the guard, the base-URL check, compression, the hot route's match,
// the plain endpoint's request and headers, the security headers, the request's log line), on the
// cheapest answer a hot route gives: user info's CORS preflight (OPTIONS, a 204 that reads no
// database and builds no error).
// Beside it, a bare node:http server answering the same status, headers and body. Hubs with the
// request line off (LOG_LEVEL=warn) and compression off (HUB_COMPRESSION=0) show those two parts.
// CPU per answer of each server's process, in turns, at 8 connections. One command:
//
//   DATABASE_URL=postgresql://… npx tsx bench/hot-routes/layer.ts [--reps 3] [--seconds 5]
//
// Needs the production build (`npm start` or `npm test` makes it).
import { parseArgs } from "node:util";
import { prepareDatabase, spawnChild, startHub, stopChild, waitForAnswer, type TBenchHub } from "../lib/hub";
import { loadAverage, machineLine, runLoad } from "../lib/load";

const { values } = parseArgs({ options: { reps: { type: "string", default: "3" }, seconds: { type: "string", default: "5" }, port: { type: "string", default: "3760" } } });
const port = Number(values.port);
const PATH = "/users/v1/users/info";

console.log(`bench/hot-routes/layer: ${machineLine()}`);
const env = prepareDatabase("layer", "postgres", port);
const variants: Array<{ name: string; env: Record<string, string> }> = [
  { name: "hub", env: {} },
  { name: "hub, LOG_LEVEL=warn", env: { LOG_LEVEL: "warn" } },
  { name: "hub, HUB_COMPRESSION=0", env: { HUB_COMPRESSION: "0" } },
];
const hubs: Array<{ name: string; hub: TBenchHub }> = [];
for (const [i, v] of variants.entries()) {
  const p = port + i;
  hubs.push({ name: v.name, hub: await startHub({ ...env, ...v.env, PORT: String(p), HUB_BASE_URL: `http://localhost:${p}` }) });
}
// The hub's own answer, sent as it is by the bare server.
const sample = await fetch(`${hubs[0]!.hub.base}${PATH}`, { method: "OPTIONS" });
const body = await sample.text();
const headers = Object.fromEntries([...sample.headers].filter(([name]) => !["date", "connection", "keep-alive", "content-length", "x-request-id", "transfer-encoding"].includes(name)));
const BARE = `require("node:http").createServer((q, s) => s.writeHead(${sample.status}, ${JSON.stringify(headers)}).end(${JSON.stringify(body)} || undefined)).listen(${port + 9})`;
const bare = spawnChild(process.execPath, ["-e", BARE], { stdio: ["ignore", "ignore", "inherit"] });
await waitForAnswer(`http://localhost:${port + 9}/`);
console.log(`answer: ${sample.status}, ${Object.keys(headers).length} headers, ${body.length} bytes`);

const targets = [...hubs.map(({ name, hub }) => ({ name, url: `${hub.base}${PATH}`, pid: hub.server.pid! })), { name: "bare node:http", url: `http://localhost:${port + 9}${PATH}`, pid: bare.pid! }];
try {
  for (const t of targets) await runLoad({ label: t.name, url: t.url, method: "OPTIONS", connections: 8, durationSeconds: 3, expectStatus: sample.status });
  for (let rep = 1; rep <= Number(values.reps); rep++) {
    console.log(`\nrepetition ${rep} (load ${loadAverage()})\n| server | answers/s | CPU µs per answer |\n|---|---:|---:|`);
    for (const t of targets) {
      const r = await runLoad({ label: t.name, url: t.url, method: "OPTIONS", connections: 8, durationSeconds: Number(values.seconds), expectStatus: sample.status, cpuOf: { pid: t.pid } });
      console.log(`| ${t.name} | ${Math.round(r.rps)} | ${Math.round(r.cpuMs!.server * 1000)} |`);
    }
  }
} finally {
  await Promise.all([stopChild(bare), ...hubs.map(({ hub }) => hub.stop())]);
}
