// bench/hot-routes/token-floor.ts: the hub's token exchange beside its floor and node-oidc-provider
// with its in-memory store (docs/performance.md, "The token exchange against its floor"). Three
// servers in one run, loaded in turns at 1 and 8 connections, each code used once:
//   - the hub (server.mjs, production build): POST /lti/v1/oauth2/authorize;
//   - the floor (token-floor-server.ts): node:http reading the code, claiming it and recording the
//     two tokens' rows, signing them with the hub's functions, writing the access log's row; it
//     answers the hub's own requests for the hub's own codes, on the hub's database;
//   - the provider's /token (bench/oauth/peer.mjs, PEER_STORE=memory), for its own codes.
// client_secret_post; PostgreSQL only. One command:
//
//   DATABASE_URL=postgresql://… npx tsx bench/hot-routes/token-floor.ts [--reps 3] [--codes 1500]
//
// Needs the production build (`npm start` or `npm test` makes it).
import path from "node:path";
import { parseArgs } from "node:util";
import { prepareDatabase, spawnChild, startHub, stopChild, waitForAnswer } from "../lib/hub";
import { DEMO_CLIENT, FORM_HEADERS, hubTokenBody, mintHubCodes, readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, runLoad, type TLoadResult } from "../lib/load";
import { mintPeerCodes, peerBody, startOidcPeer } from "../oauth/peer-process";
import { printRepetitions } from "./floor";

const { values } = parseArgs({
  options: {
    reps: { type: "string", default: "3" },
    codes: { type: "string", default: "1500" },
    port: { type: "string", default: "3750" },
  },
});
const port = Number(values.port);
const codes = Number(values.codes);

console.log(`bench/hot-routes/token-floor on postgres: ${machineLine()}`);
const env = prepareDatabase("tokenfloor", "postgres", port);
const people = await readBenchPeople(env, "postgres");
const cookie = await sessionCookieHeader(env, people.student);
const hub = await startHub(env);
const floor = spawnChild(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "token-floor-server.ts")], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, DATABASE_URL: env.DATABASE_URL, PORT: String(port + 1), FLOOR_ISSUER: hub.base, FLOOR_CLIENT_ID: DEMO_CLIENT.id, FLOOR_CLIENT_SECRET: DEMO_CLIENT.secret },
});
const floorUrl = `http://localhost:${port + 1}/token`;
await waitForAnswer(floorUrl);
const peer = await startOidcPeer(port + 2, { PEER_STORE: "memory" });

type TTarget = "hub" | "floor" | "peer";
const NAMES: Record<TTarget, string> = { hub: "hub token exchange", floor: "floor", peer: "provider /token (memory)" };
async function run(who: TTarget, connections: number, n: number): Promise<TLoadResult> {
  if (who === "peer") {
    const peerCodes = await mintPeerCodes(peer.base, n, "peer-client_secret_post");
    return runLoad({ label: NAMES.peer, url: `${peer.base}/token`, method: "POST", connections, headers: FORM_HEADERS, bodies: peerCodes.map((c) => peerBody(c, "post")), cpuOf: { pid: peer.child.pid! } });
  }
  const hubCodes = await mintHubCodes(hub.base, cookie, n);
  return runLoad({
    label: NAMES[who], url: who === "hub" ? `${hub.base}/lti/v1/oauth2/authorize` : floorUrl, method: "POST", connections, headers: FORM_HEADERS,
    bodies: hubCodes.map((c) => hubTokenBody(hub.base, c, "post")), cpuOf: { pid: (who === "hub" ? hub.server.pid : floor.pid)!, postgres: true },
  });
}

const order: TTarget[] = ["hub", "floor", "peer"];
try {
  for (const who of order) await run(who, 8, codes);
  await printRepetitions({
    reps: Number(values.reps), targets: order, run: (who, connections) => run(who, connections, codes),
    rate: "exchanges/s", per: "exchange", baseline: "provider",
  });
  console.log(`\nload average at the end ${loadAverage()}`);
} finally {
  await Promise.all([hub.stop(), stopChild(floor), stopChild(peer.child)]);
}
