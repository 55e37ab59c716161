// bench/oauth: the hub's token exchange and user info beside node-oidc-provider doing the same job
// (docs/performance.md, "Token exchange and user info"). One command:
//
//   npx tsx bench/oauth/run.ts                 # embedded database (PGlite)
//   DATABASE_URL=postgresql://… npx tsx bench/oauth/run.ts --pg
//   … --only token (or userinfo)              # one path alone, e.g. with BENCH_PROFILE_DIR=/tmp/prof
//
// Needs the production build (`npm start` or `npm test` makes it). For each repetition, at 1 and
// 8 connections, interleaved hub/peer: the code → tokens exchange with client_secret_post and with
// client_secret_basic (PKCE S256, redirect_uri, RS256 id_token; each code minted beforehand and
// used once), then user info with one access token (the hub's /users/v1/users/info, the peer's /me).
// The server's RSS is sampled throughout. Before the timed runs, each server answers an untimed
// warm-up of each path (--warmup seconds of user info, --codes exchanges; 0 for none): the figures
// are those of servers that have been answering for a while, not of the first thousand requests,
// which V8 runs before it has optimized them.
import { parseArgs } from "node:util";
import { freshDatabase, prepareDatabase, startHub, stopChild } from "../lib/hub";
import { basic, mintPeerAccessToken, mintPeerCodes, PEER_SECRET, peerBody, startOidcPeer } from "./peer-process";
import { DEMO_CLIENT, FORM_HEADERS as FORM, hubAccessToken, hubTokenBody, mintHubCodes, readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, printRepetition, printRss, RssSampler, runLoad, type TLoadResult, type TPairRow } from "../lib/load";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean", default: false },
    reps: { type: "string", default: "3" },
    codes: { type: "string", default: "1500" },
    seconds: { type: "string", default: "5" },
    warmup: { type: "string", default: "10" },
    port: { type: "string", default: "3400" },
    // Only one of the paths (e.g. with BENCH_PROFILE_DIR, to profile it alone): token or userinfo.
    only: { type: "string" },
  },
});
if (values.only !== undefined && values.only !== "token" && values.only !== "userinfo") throw new Error("--only is token or userinfo");
const reps = Number(values.reps);
const codesPerRun = Number(values.codes);
const port = Number(values.port);
const engine = values.pg ? "postgres" : "pglite";

console.log(`bench/oauth on ${engine}: ${machineLine()}`);
const env = prepareDatabase("oauth", engine, port);
const people = await readBenchPeople(env, engine);
const cookie = await sessionCookieHeader(env, people.student);
const hub = await startHub(env);
// Two peers: node-oidc-provider with its codes, grants and tokens in a Map (fastest, but nothing
// durable or shared: development only, as the provider warns), and with them in the same kind of
// database as the hub's (production-shaped: what the hub does, rows every instance shares).
const peerStore: Record<string, string> = engine === "postgres" ? { PEER_STORE: "postgres", PEER_DATABASE_URL: freshDatabase("oauth_peer", engine) } : { PEER_STORE: "pglite", PEER_PGLITE_DIR: freshDatabase("oauth-peer", engine) };
const peers = { memory: await startOidcPeer(port + 1, { PEER_STORE: "memory" }), database: await startOidcPeer(port + 2, peerStore) };
type TPeer = keyof typeof peers;
const PEER_NAMES = { peer: "peer (memory)", peer2: `peer (${engine === "postgres" ? "PostgreSQL" : "PGlite"})` };

/** Whose CPU a run measures: the server's process, and PostgreSQL's when the bench runs on it. */
const cpuOf = (who: "hub" | TPeer) => ({ pid: (who === "hub" ? hub.server.pid : peers[who].child.pid)!, postgres: engine === "postgres" });

async function tokenRun(who: "hub" | TPeer, auth: "post" | "basic", connections: number): Promise<TLoadResult> {
  if (who === "hub") {
    const codes = await mintHubCodes(hub.base, cookie, codesPerRun);
    return runLoad({
      label: `hub token ${auth}`, url: `${hub.base}/lti/v1/oauth2/authorize`, method: "POST", connections,
      headers: { ...FORM, ...(auth === "basic" ? { authorization: basic(DEMO_CLIENT.id, DEMO_CLIENT.secret) } : {}) },
      bodies: codes.map((c) => hubTokenBody(hub.base, c, auth)), cpuOf: cpuOf(who),
    });
  }
  const client = auth === "post" ? "peer-client_secret_post" : "peer-client_secret_basic";
  const codes = await mintPeerCodes(peers[who].base, codesPerRun, client);
  return runLoad({
    label: `peer (${who}) token ${auth}`, url: `${peers[who].base}/token`, method: "POST", connections,
    headers: { ...FORM, ...(auth === "basic" ? { authorization: basic(client, PEER_SECRET) } : {}) },
    bodies: codes.map((c) => peerBody(c, auth)), cpuOf: cpuOf(who),
  });
}

// One access token each for user info.
const hubToken = await hubAccessToken(hub.base, cookie);
const peerTokens = { memory: await mintPeerAccessToken(peers.memory.base), database: await mintPeerAccessToken(peers.database.base) };

const rss = new RssSampler(hub.server.pid!);
const rows: TPairRow[] = [];
const seconds = Number(values.seconds);
const userInfoRun = (who: "hub" | TPeer, connections: number, durationSeconds: number) =>
  who === "hub"
    ? runLoad({ label: "hub userinfo", url: `${hub.base}/users/v1/users/info`, connections, headers: { authorization: `Bearer ${hubToken}` }, durationSeconds, cpuOf: cpuOf(who) })
    : runLoad({ label: `peer (${who}) /me`, url: `${peers[who].base}/me`, connections, headers: { authorization: `Bearer ${peerTokens[who]}` }, durationSeconds, cpuOf: cpuOf(who) });
try {
  const warmup = Number(values.warmup);
  if (warmup > 0) {
    const done: string[] = [];
    for (const who of ["hub", "memory", "database"] as const) {
      const exchanges = values.only === "userinfo" ? null : await tokenRun(who, "basic", 8);
      const reads = values.only === "token" ? null : await userInfoRun(who, 8, warmup);
      done.push(`${who}: ${exchanges?.requests ?? 0} exchanges, ${reads?.requests ?? 0} user info (${(exchanges?.unexpected ?? 0) + (reads?.unexpected ?? 0)} unexpected)`);
    }
    console.log(`warm-up, not timed: ${done.join("; ")}`);
  }
  for (let rep = 1; rep <= reps; rep++) {
    console.log(`\nrepetition ${rep}/${reps} (load average ${loadAverage()}, hub RSS ${rss.sample()} MB)`);
    const repRows: typeof rows = [];
    for (const connections of [1, 8]) {
      for (const auth of values.only === "userinfo" ? [] : (["post", "basic"] as const)) {
        const h = await tokenRun("hub", auth, connections);
        const p = await tokenRun("memory", auth, connections);
        const p2 = await tokenRun("database", auth, connections);
        repRows.push({ path: `token (client_secret_${auth})`, hub: h, peer: p, peer2: p2 });
      }
      if (values.only === "token") continue;
      const h = await userInfoRun("hub", connections, seconds);
      const p = await userInfoRun("memory", connections, seconds);
      const p2 = await userInfoRun("database", connections, seconds);
      repRows.push({ path: "user info (hub) / `/me` (peer)", hub: h, peer: p, peer2: p2 });
    }
    printRepetition(repRows, PEER_NAMES);
    rows.push(...repRows);
  }
} finally {
  printRss(rss);
  await Promise.all(Object.values(peers).map((p) => stopChild(p.child)));
  await hub.stop();
}
