// bench/oauth: the hub's token exchange and user info beside node-oidc-provider doing the same job
// (docs/performance.md, "Token exchange and user info"). One command:
//
//   npx tsx bench/oauth/run.ts                 # embedded database (PGlite)
//   DATABASE_URL=postgresql://… npx tsx bench/oauth/run.ts --pg
//
// Needs the production build (`npm start` or `npm test` makes it). For each repetition, at 1 and
// 8 connections, interleaved hub/peer: the code → tokens exchange with client_secret_post and with
// client_secret_basic (PKCE S256, redirect_uri, RS256 id_token; each code minted beforehand and
// used once), then user info with one access token (the hub's /users/v1/users/info, the peer's /me).
// The server's RSS is sampled throughout.
import path from "node:path";
import { parseArgs } from "node:util";
import { prepareDatabase, spawnChild, startHub, stopChild } from "../lib/hub";
import { BENCH_VERIFIER, DEMO_CLIENT, FORM_HEADERS as FORM, hubAccessToken, hubTokenBody, mintHubCodes, readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, printRepetition, printRss, RssSampler, runLoad, type TLoadResult, type TPairRow } from "../lib/load";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean", default: false },
    reps: { type: "string", default: "3" },
    codes: { type: "string", default: "1500" },
    seconds: { type: "string", default: "5" },
    port: { type: "string", default: "3400" },
  },
});
const reps = Number(values.reps);
const codesPerRun = Number(values.codes);
const port = Number(values.port);
const peerPort = port + 1;
const engine = values.pg ? "postgres" : "pglite";

const PEER_SECRET = "peer-secret-0123456789abcdefghijklmnopqrstuv";
const PEER_REDIRECT = "http://localhost/cb";
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

console.log(`bench/oauth on ${engine}: ${machineLine()}`);
const env = prepareDatabase("oauth", engine, port);
const people = await readBenchPeople(env, engine);
const cookie = await sessionCookieHeader(env, people.student);
const hub = await startHub(env);
const peer = spawnChild(process.execPath, [path.join(import.meta.dirname, "peer.mjs")], {
  stdio: ["ignore", "ignore", "ignore"],
  env: { ...process.env, PORT: String(peerPort), ISSUER: `http://localhost:${peerPort}` },
});
const peerBase = `http://localhost:${peerPort}`;
for (let i = 0; i < 100 && !(await fetch(`${peerBase}/.well-known/openid-configuration`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 100));

async function mintPeerCodes(n: number, client: string): Promise<string[]> {
  return (await fetch(`${peerBase}/__mint/codes?n=${n}&client=${client}`, { method: "POST" })).json() as Promise<string[]>;
}

const peerBody = (code: string, auth: "post" | "basic") =>
  new URLSearchParams({
    grant_type: "authorization_code", code, redirect_uri: PEER_REDIRECT, code_verifier: BENCH_VERIFIER,
    ...(auth === "post" ? { client_id: "peer-client_secret_post", client_secret: PEER_SECRET } : {}),
  }).toString();

async function tokenRun(who: "hub" | "peer", auth: "post" | "basic", connections: number): Promise<TLoadResult> {
  if (who === "hub") {
    const codes = await mintHubCodes(hub.base, cookie, codesPerRun);
    return runLoad({
      label: `hub token ${auth}`, url: `${hub.base}/lti/v1/oauth2/authorize`, method: "POST", connections,
      headers: { ...FORM, ...(auth === "basic" ? { authorization: basic(DEMO_CLIENT.id, DEMO_CLIENT.secret) } : {}) },
      bodies: codes.map((c) => hubTokenBody(hub.base, c, auth)),
    });
  }
  const client = auth === "post" ? "peer-client_secret_post" : "peer-client_secret_basic";
  const codes = await mintPeerCodes(codesPerRun, client);
  return runLoad({
    label: `peer token ${auth}`, url: `${peerBase}/token`, method: "POST", connections,
    headers: { ...FORM, ...(auth === "basic" ? { authorization: basic(client, PEER_SECRET) } : {}) },
    bodies: codes.map((c) => peerBody(c, auth)),
  });
}

// One access token each for user info.
const hubToken = await hubAccessToken(hub.base, cookie);
const peerToken = (await (await fetch(`${peerBase}/__mint/access-token`, { method: "POST" })).json()) as string;

const rss = new RssSampler(hub.server.pid!);
const rows: TPairRow[] = [];
const seconds = Number(values.seconds);
try {
  for (let rep = 1; rep <= reps; rep++) {
    console.log(`\nrepetition ${rep}/${reps} (load average ${loadAverage()}, hub RSS ${rss.sample()} MB)`);
    const repRows: typeof rows = [];
    for (const connections of [1, 8]) {
      for (const auth of ["post", "basic"] as const) {
        const h = await tokenRun("hub", auth, connections);
        const p = await tokenRun("peer", auth, connections);
        repRows.push({ path: `token (client_secret_${auth})`, hub: h, peer: p });
      }
      const h = await runLoad({ label: "hub userinfo", url: `${hub.base}/users/v1/users/info`, connections, headers: { authorization: `Bearer ${hubToken}` }, durationSeconds: seconds });
      const p = await runLoad({ label: "peer /me", url: `${peerBase}/me`, connections, headers: { authorization: `Bearer ${peerToken}` }, durationSeconds: seconds });
      repRows.push({ path: "user info (hub) / `/me` (peer)", hub: h, peer: p });
    }
    printRepetition(repRows);
    rows.push(...repRows);
  }
} finally {
  printRss(rss);
  await stopChild(peer);
  await hub.stop();
}
