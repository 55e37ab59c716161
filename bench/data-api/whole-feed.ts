// The contract's call with neither limit nor cursor on a large network: every event comes back,
// and the hub's memory does not grow with the answer. Starts `node server.mjs` itself (production
// build, same env), samples its RSS from /proc every 20 ms while a client streams the answer.
//
//   DATABASE_URL=postgresql://… HUB_SECRET=… npx tsx bench/data-api/whole-feed.ts [--port 3291]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadNetwork } from "./load-network";

const { values } = parseArgs({ options: { port: { type: "string", default: "3291" }, key: { type: "string", default: "demo-api-key" } } });
const url = process.env.DATABASE_URL;
if (!url || !process.env.HUB_SECRET) {
  console.error("usage: DATABASE_URL=postgresql://… HUB_SECRET=… npx tsx bench/data-api/whole-feed.ts [--port 3291]");
  process.exit(2);
}
const base = `http://127.0.0.1:${values.port}`;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const agent = new Agent({ keepAlive: true });

/** GET, reading the body as it arrives without keeping it: returns bytes and events seen. */
function stream(path: string, onChunk: () => void): Promise<{ status: number; bytes: number; events: number }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { agent, headers: { "x-api-key": values.key!, "accept-encoding": "identity" } }, (res) => {
      let bytes = 0;
      let events = 0;
      let tail = "";
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        const text = tail + chunk.toString("latin1");
        events += text.split('"evento":"').length - 1;
        tail = text.slice(-12);
        events -= tail.split('"evento":"').length - 1;
        onChunk();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, events: events + tail.split('"evento":"').length - 1 }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

async function main() {
  const pool = new pg.Pool({ connectionString: url });
  const network = await loadNetwork(pool);
  const { rows: [count] } = await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM "ChangeEvent" WHERE "institutionId" = ANY($1::uuid[])`, [[network.id, ...network.schools]]);
  await pool.end();

  const server = spawn(process.execPath, ["server.mjs"], { env: { ...process.env, PORT: values.port, NODE_ENV: "production" }, stdio: ["ignore", "ignore", "inherit"] });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        if (i > 300) throw new Error("server.mjs did not start");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Warm up (first requests load the route's code), then settle: that is the idle RSS.
    for (let i = 0; i < 5; i++) await stream(`/manager/v1/data/${network.id}?limit=1000`, () => {});
    await new Promise((r) => setTimeout(r, 2_000));
    const idle = rssMb(server.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid!))), 20);
    const started = performance.now();
    const result = await stream(`/manager/v1/data/${network.id}`, () => {});
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(server.pid!));
    console.log(`Network ${network.name}: ${network.schools.length} schools, ${count!.n} events in the database.`);
    console.log(`| events returned | of | MB sent | seconds | events/s | idle RSS MB | peak RSS MB | growth MB | load avg |`);
    console.log(`|---|---|---|---|---|---|---|---|---|`);
    console.log(`| ${result.events} | ${count!.n} | ${(result.bytes / 1e6).toFixed(1)} | ${seconds.toFixed(1)} | ${Math.round(result.events / seconds)} | ${idle.toFixed(0)} | ${peak.toFixed(0)} | ${(peak - idle).toFixed(0)} | ${os.loadavg()[0]!.toFixed(2)} |`);
    if (result.status !== 200 || String(result.events) !== count!.n) process.exitCode = 1;
  } finally {
    server.kill("SIGTERM");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
