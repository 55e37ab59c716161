// HTTP and statistics helpers shared by the Data API benches (run.ts, growth.ts).
import { Agent, request } from "node:http";
import { gunzipSync } from "node:zlib";


export type TAcceptEncoding = "gzip, deflate" | "identity";

/**
 * GET with node:http on keep-alive connections, the body collected and decompressed in one call.
 * Node's fetch would cost the client about 2 ms more per 360 KB page (its decompression runs
 * through web streams), which is the client's time, not the hub's (docs/performance.md).
 */
export function httpGet(
  agent: Agent,
  target: string,
  apiKey: string,
  acceptEncoding: TAcceptEncoding,
  headers: Record<string, string> = {},
): Promise<{ status: number; encoding: string | undefined; body: Buffer; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    request(target, { agent, headers: { ...(apiKey ? { "x-api-key": apiKey } : {}), "accept-encoding": acceptEncoding, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const encoding = res.headers["content-encoding"];
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, encoding, body: encoding === "gzip" ? gunzipSync(raw) : raw, headers: res.headers });
      });
    })
      .on("error", reject)
      .end();
  });
}

/** httpGet that insists on a 200: anything else throws, naming the target and the start of the body. */
export async function httpGetOk(agent: Agent, target: string, apiKey: string, acceptEncoding: TAcceptEncoding, headers: Record<string, string> = {}) {
  const response = await httpGet(agent, target, apiKey, acceptEncoding, headers);
  if (response.status !== 200) throw new Error(`${target} answered ${response.status}: ${response.body.toString().slice(0, 300)}`);
  return response;
}

/**
 * Sequential latency of several ways to get the same answer, sampled in turns (a, b, c, a, b, c,
 * ...) so that whatever else the machine does weighs on each the same, after `warmup` rounds
 * (JIT, plan cache, buffer cache). Returns each timer's times in ms, sorted.
 */
export async function sampleInTurns(timers: Record<string, () => Promise<unknown>>, samples: number, warmup: number): Promise<Record<string, number[]>> {
  const entries = Object.entries(timers);
  for (let i = 0; i < warmup; i++) for (const [, fn] of entries) await fn();
  const times: Record<string, number[]> = Object.fromEntries(entries.map(([name]) => [name, []]));
  for (let i = 0; i < samples; i++) {
    for (const [name, fn] of entries) {
      const t = performance.now();
      await fn();
      times[name]!.push(performance.now() - t);
    }
  }
  for (const list of Object.values(times)) list.sort((a, b) => a - b);
  return times;
}
