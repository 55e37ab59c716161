// bench/hot-routes/bridge.ts: what server.mjs's two ways of serving a hot route cost on their own
// (docs/decisions/033). The same trivial JSON endpoint is served by hot-routes.ts through the web
// bridge (a NextRequest in, a Response out) and as a plain endpoint (node:http in and out), inside
// an AsyncLocalStorage as server.mjs serves every request; autocannon (8 connections, in a child)
// loads each in turn, and this process's CPU per request is printed. One command:
//
//   npx tsx bench/hot-routes/bridge.ts [--rounds 3] [--seconds 4]
import { AsyncLocalStorage } from "node:async_hooks";
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { hotRoutes, registerHotRoutes } from "@/lib/server/http/hot-routes";
import { routeHandler, type TPlainEndpoint } from "@/lib/server/http/plain-endpoint";
import { loadAverage, machineLine } from "../lib/load";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" }, seconds: { type: "string", default: "4" } } });

const endpoint: TPlainEndpoint = (request) => ({
  status: 200,
  headers: { "Cache-Control": "no-store" },
  json: { sub: "0c1d", authorization: request.header("authorization"), usuario: { nome_usuario: "Ana", email_usuario: null } },
});
const web = routeHandler(endpoint);
registerHotRoutes([
  { method: "GET", path: "/web", handler: (request) => web(request) },
  { method: "GET", path: "/plain", endpoint },
]);
const requestIds = new AsyncLocalStorage<string>();
const server = http.createServer((req, res) => requestIds.run("id", () => void hotRoutes()?.match(req)?.(req, res)));
await new Promise<void>((resolve) => server.listen(0, resolve));
const port = (server.address() as AddressInfo).port;

/** autocannon in a child, so this process's CPU is the server's alone. */
function load(path: string): Promise<{ requests: number; perSecond: number; non2xx: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["autocannon", "-c", "8", "-d", values.seconds, "-j", "-H", "authorization=Bearer x", `http://localhost:${port}${path}`]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.on("error", reject);
    child.on("close", () => {
      const result = JSON.parse(out) as { requests: { total: number; average: number }; non2xx: number };
      resolve({ requests: result.requests.total, perSecond: result.requests.average, non2xx: result.non2xx });
    });
  });
}

console.log(`bench/hot-routes/bridge: ${machineLine()}`);
console.log("| round | bridge | req/s | server CPU per request | non-2xx | load average |\n|---:|---|---:|---:|---:|---|");
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const [name, path] of [["Request → handler → Response", "/web"], ["plain endpoint on node:http", "/plain"]] as const) {
    const cpu = process.cpuUsage();
    const { requests, perSecond, non2xx } = await load(path);
    const used = process.cpuUsage(cpu);
    const perRequest = ((used.user + used.system) / requests).toFixed(1);
    console.log(`| ${round} | ${name} | ${perSecond.toFixed(0)} | ${perRequest} µs | ${non2xx} | ${loadAverage()} |`);
  }
}
server.close();
