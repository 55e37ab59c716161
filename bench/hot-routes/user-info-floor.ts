// bench/hot-routes/user-info-floor.ts: where user info's time goes, against node-oidc-provider's
// /me with its in-memory store (docs/performance.md, "User info against its floor"). Four servers
// in one run, loaded in turns at 1 and 8 connections:
//   - the hub (server.mjs, production build) answering /users/v1/users/info;
//   - the floor with the access log (user-info-floor-server.ts): node:http reading the token's row
//     in one statement and writing the hub's access-log rows, answering the hub's body;
//   - the floor without the access log;
//   - the fair floor: the floor with the access log reading the token's row with the hub's own
//     statement (FRESH_SQL), which also tells whether the answer still holds, as the hub must;
//   - the provider's /me (bench/oauth/peer.mjs, PEER_STORE=memory).
// PostgreSQL only (the floor talks to it with `pg`); the CPU per answer of each server and of
// PostgreSQL is printed beside the throughput. One command:
//
//   DATABASE_URL=postgresql://… npx tsx bench/hot-routes/user-info-floor.ts [--reps 3] [--seconds 5] [--warmup 5]
//
// Needs the production build (`npm start` or `npm test` makes it).
import path from "node:path";
import { parseArgs } from "node:util";
import { prepareDatabase, spawnChild, startHub, stopChild, waitForAnswer } from "../lib/hub";
import { hubAccessToken, readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, runLoad, type TLoadResult } from "../lib/load";
import { mintPeerAccessToken, startOidcPeer } from "../oauth/peer-process";
import { printRepetitions } from "./floor";

const { values } = parseArgs({
  options: {
    reps: { type: "string", default: "3" },
    seconds: { type: "string", default: "5" },
    warmup: { type: "string", default: "5" },
    port: { type: "string", default: "3700" },
  },
});
const port = Number(values.port);
const seconds = Number(values.seconds);

console.log(`bench/hot-routes/user-info-floor on postgres: ${machineLine()}`);
const env = prepareDatabase("uifloor", "postgres", port);
const people = await readBenchPeople(env, "postgres");
const hub = await startHub(env);
const token = await hubAccessToken(hub.base, await sessionCookieHeader(env, people.student));
const hubAnswer = await fetch(`${hub.base}/users/v1/users/info`, { headers: { authorization: `Bearer ${token}` } });
if (hubAnswer.status !== 200) throw new Error(`the hub's user info answered ${hubAnswer.status}`);
const body = await hubAnswer.text();
const { jti } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { jti: string };

function startFloor(floorPort: number, log: boolean, stamp = false) {
  const child = spawnChild(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "user-info-floor-server.ts")], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: env.DATABASE_URL, PORT: String(floorPort), FLOOR_JTI: jti, FLOOR_BODY: body, FLOOR_LOG: log ? "1" : "0", FLOOR_STAMP: stamp ? "1" : "0" },
  });
  return { child, url: `http://localhost:${floorPort}/` };
}
const floorLog = startFloor(port + 1, true);
const floorBare = startFloor(port + 2, false);
const floorStamp = startFloor(port + 4, true, true);
const peer = await startOidcPeer(port + 3, { PEER_STORE: "memory" });
await Promise.all([waitForAnswer(floorLog.url), waitForAnswer(floorBare.url), waitForAnswer(floorStamp.url)]);
const peerToken = await mintPeerAccessToken(peer.base);

const targets = [
  { name: "hub user info", url: `${hub.base}/users/v1/users/info`, pid: hub.server.pid!, postgres: true, token },
  { name: "floor: the hub's statement + access log", url: floorStamp.url, pid: floorStamp.child.pid!, postgres: true, token },
  { name: "floor: token row + access log", url: floorLog.url, pid: floorLog.child.pid!, postgres: true, token },
  { name: "floor: token row", url: floorBare.url, pid: floorBare.child.pid!, postgres: true, token },
  { name: "provider /me (memory)", url: `${peer.base}/me`, pid: peer.child.pid!, postgres: false, token: peerToken },
];
const run = (t: (typeof targets)[number], connections: number, durationSeconds: number): Promise<TLoadResult> =>
  runLoad({ label: t.name, url: t.url, connections, headers: { authorization: `Bearer ${t.token}` }, durationSeconds, cpuOf: { pid: t.pid, postgres: t.postgres } });

try {
  if (Number(values.warmup) > 0) for (const t of targets) await run(t, 8, Number(values.warmup));
  await printRepetitions({
    reps: Number(values.reps), targets, run: (t, connections) => run(t, connections, seconds),
    rate: "req/s", per: "answer", baseline: "/me",
  });
  console.log(`\nload average at the end ${loadAverage()}`);
} finally {
  await Promise.all([hub.stop(), stopChild(floorLog.child), stopChild(floorBare.child), stopChild(floorStamp.child), stopChild(peer.child)]);
}
