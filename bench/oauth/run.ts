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
import { createHash } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { prepareDatabase, spawnChild, startHub, stopChild } from "../lib/hub";
import { readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { machineLine, pairTable, loadAverage, RssSampler, runLoad, type TLoadResult } from "../lib/load";

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

const VERIFIER = "bench-verifier-0123456789abcdefghijklmnopqrstuvwxyz0123";
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");
const HUB_CLIENT = { id: "demo-app", secret: "demo-secret" };
const PEER_SECRET = "peer-secret-0123456789abcdefghijklmnopqrstuv";
const PEER_REDIRECT = "http://localhost/cb";
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

console.log(`bench/oauth on ${engine}: ${machineLine()}`);
const env = prepareDatabase("oauth", engine, port);
const people = await readBenchPeople(env, engine);
const cookie = await sessionCookieHeader(env, people.student);
const hub = await startHub(env);
const hubRedirect = `${hub.base}/demo-app/callback`;
const peer = spawnChild(process.execPath, [path.join(import.meta.dirname, "peer.mjs")], {
  stdio: ["ignore", "ignore", "ignore"],
  env: { ...process.env, PORT: String(peerPort), ISSUER: `http://localhost:${peerPort}` },
});
const peerBase = `http://localhost:${peerPort}`;
for (let i = 0; i < 100 && !(await fetch(`${peerBase}/.well-known/openid-configuration`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 100));

/** Codes from the hub's own authorization endpoint, for the signed-in student (8 at a time). */
async function mintHubCodes(n: number): Promise<string[]> {
  const codes: string[] = [];
  const one = async (i: number) => {
    const query = new URLSearchParams({
      response_type: "code", client_id: HUB_CLIENT.id, redirect_uri: hubRedirect, scope: "openid user.info", state: `s${i}`, nonce: `n${i}`,
      code_challenge: CHALLENGE, code_challenge_method: "S256",
    });
    const res = await fetch(`${hub.base}/lti/v1/oauth2/authorize?${query}`, { headers: { cookie }, redirect: "manual" });
    const code = new URL(res.headers.get("location") ?? "", hub.base).searchParams.get("code");
    if (!code) throw new Error(`authorize answered ${res.status} without a code (${res.headers.get("location")})`);
    codes.push(code);
  };
  for (let i = 0; i < n; i += 8) await Promise.all(Array.from({ length: Math.min(8, n - i) }, (_, k) => one(i + k)));
  return codes;
}

async function mintPeerCodes(n: number, client: string): Promise<string[]> {
  return (await fetch(`${peerBase}/__mint/codes?n=${n}&client=${client}`, { method: "POST" })).json() as Promise<string[]>;
}

const hubBody = (code: string, auth: "post" | "basic") =>
  new URLSearchParams({
    grant_type: "authorization_code", code, redirect_uri: hubRedirect, code_verifier: VERIFIER,
    ...(auth === "post" ? { client_id: HUB_CLIENT.id, client_secret: HUB_CLIENT.secret } : {}),
  }).toString();
const peerBody = (code: string, auth: "post" | "basic") =>
  new URLSearchParams({
    grant_type: "authorization_code", code, redirect_uri: PEER_REDIRECT, code_verifier: VERIFIER,
    ...(auth === "post" ? { client_id: "peer-client_secret_post", client_secret: PEER_SECRET } : {}),
  }).toString();

async function tokenRun(who: "hub" | "peer", auth: "post" | "basic", connections: number): Promise<TLoadResult> {
  if (who === "hub") {
    const codes = await mintHubCodes(codesPerRun);
    return runLoad({
      label: `hub token ${auth}`, url: `${hub.base}/lti/v1/oauth2/authorize`, method: "POST", connections,
      headers: { ...FORM, ...(auth === "basic" ? { authorization: basic(HUB_CLIENT.id, HUB_CLIENT.secret) } : {}) },
      bodies: codes.map((c) => hubBody(c, auth)),
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
const [hubToken] = await mintHubCodes(1).then(async ([code]) => {
  const res = await fetch(`${hub.base}/lti/v1/oauth2/authorize`, { method: "POST", headers: FORM, body: hubBody(code!, "post") });
  return [((await res.json()) as { access_token: string }).access_token];
});
const peerToken = (await (await fetch(`${peerBase}/__mint/access-token`, { method: "POST" })).json()) as string;

const rss = new RssSampler(hub.server.pid!);
const rows: Array<{ path: string; hub: TLoadResult; peer: TLoadResult }> = [];
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
    console.log(pairTable(repRows));
    for (const r of repRows.flatMap((row) => [row.hub, row.peer])) if (r.unexpected) console.log(`  ${r.label} (${r.connections}): unexpected answers ${JSON.stringify(r.statuses)}`);
    rows.push(...repRows);
  }
} finally {
  const memory = rss.stop();
  console.log(`\nhub RSS: ${memory.first} MB at the start, ${memory.max} MB at most, ${memory.last} MB at the end; load average ${loadAverage()}`);
  await stopChild(peer);
  await hub.stop();
}
