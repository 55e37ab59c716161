// The served hub for the Data API benches (whole-feed.ts, growth.ts): `node server.mjs` started on
// a port, and the whole feed streamed from it while its RSS is sampled.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request, type Agent } from "node:http";
import { serverSpawn } from "../../scripts/lib/server-command.mjs";
import { profileArgs } from "../lib/hub";

/** Starts the production server (`node server.mjs`, the build in .next) and waits for /healthz. */
export async function startServer(port: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const server = spawn(...serverSpawn({ ...env, PORT: port, NODE_ENV: "production" }, { stdio: ["ignore", "ignore", "inherit"] }, ...profileArgs()));
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return server;
    } catch {
      if (i > 600) {
        server.kill("SIGTERM");
        throw new Error("server.mjs did not start");
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

const EVENT_MARK = Buffer.from('"evento":"');

/**
 * GET, reading the body as it arrives without keeping it: returns the status, bytes and events
 * seen. Events are counted by searching the bytes (no string is made of them): on 2 cores the
 * client shares the machine with the hub and PostgreSQL, and should take as little as it can.
 */
export function streamEvents(agent: Agent, url: string, apiKey: string): Promise<{ status: number; bytes: number; events: number }> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { "x-api-key": apiKey, "accept-encoding": "identity" } }, (res) => {
      let bytes = 0;
      let events = 0;
      // The previous chunk's last bytes (one fewer than a mark), for a mark cut by the boundary.
      // Only that seam is copied: concatenating each chunk to the tail copied all 760 MB of a
      // million students' feed in the client, on the cores the hub and PostgreSQL run on.
      let tail = Buffer.alloc(0);
      const keep = EVENT_MARK.length - 1;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (tail.length > 0) {
          const seam = Buffer.concat([tail, chunk.subarray(0, keep)]);
          // A mark that starts in the tail; one wholly in the chunk is counted below.
          const at = seam.indexOf(EVENT_MARK);
          if (at !== -1 && at < tail.length) events++;
        }
        for (let at = chunk.indexOf(EVENT_MARK); at !== -1; at = chunk.indexOf(EVENT_MARK, at + EVENT_MARK.length)) events++;
        tail = chunk.length >= keep ? Buffer.from(chunk.subarray(chunk.length - keep)) : Buffer.concat([tail, chunk]).subarray(-keep);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, events }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

/**
 * The whole feed of `url` (no limit, no cursor) streamed once the server has settled for 2 s (its
 * RSS then is "idle"), with the server's RSS sampled every 20 ms.
 */
export async function walkFeed(options: { agent: Agent; url: string; apiKey: string; pid: number }) {
  await new Promise((r) => setTimeout(r, 2_000));
  const idleRssMb = rssMb(options.pid);
  let peakRssMb = idleRssMb;
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(options.pid))), 20);
  const started = performance.now();
  try {
    const result = await streamEvents(options.agent, options.url, options.apiKey);
    const seconds = (performance.now() - started) / 1000;
    peakRssMb = Math.max(peakRssMb, rssMb(options.pid));
    return { ...result, seconds, eventsPerSecond: result.events / seconds, idleRssMb, peakRssMb };
  } finally {
    clearInterval(sampler);
  }
}

/** Runs a bench's `main`, then exits: 0 when it finished, 1 with the error printed (an open pool or agent would keep the process alive). */
export function runToExit(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
