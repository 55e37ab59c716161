// bench/memory: the served hub's resident memory under a school morning's mix — launches, user
// info and token exchanges at 8 connections — sampled every 10 s (docs/performance.md, "Memory").
//
//   npx tsx bench/memory/run.ts --seconds 300          # embedded database
//   DATABASE_URL=postgresql://… npx tsx bench/memory/run.ts --pg --seconds 300
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { prepareDatabase, startHub } from "../lib/hub";
import { readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, RssSampler, runLoad } from "../lib/load";

const { values } = parseArgs({
  options: { pg: { type: "boolean", default: false }, seconds: { type: "string", default: "300" }, port: { type: "string", default: "3404" } },
});
const engine = values.pg ? "postgres" : "pglite";
const port = Number(values.port);
const total = Number(values.seconds);
const SLICE_S = 10;
const VERIFIER = "bench-verifier-0123456789abcdefghijklmnopqrstuvwxyz0123";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

console.log(`bench/memory on ${engine}: ${machineLine()}`);
const env = prepareDatabase("memory", engine, port);
const people = await readBenchPeople(env, engine);
const cookie = await sessionCookieHeader(env, people.student);
const hub = await startHub(env);
const redirect = `${hub.base}/demo-app/callback`;

async function mintCodes(n: number): Promise<string[]> {
  const codes: string[] = [];
  const challenge = createHash("sha256").update(VERIFIER).digest("base64url");
  for (let i = 0; i < n; i += 8) {
    await Promise.all(Array.from({ length: Math.min(8, n - i) }, async (_, k) => {
      const query = new URLSearchParams({ response_type: "code", client_id: "demo-app", redirect_uri: redirect, scope: "openid user.info", state: `s${i + k}`, code_challenge: challenge, code_challenge_method: "S256" });
      const res = await fetch(`${hub.base}/lti/v1/oauth2/authorize?${query}`, { headers: { cookie }, redirect: "manual" });
      const code = new URL(res.headers.get("location") ?? "", hub.base).searchParams.get("code");
      if (code) codes.push(code);
    }));
  }
  return codes;
}
const tokenBody = (code: string) => new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirect, code_verifier: VERIFIER, client_id: "demo-app", client_secret: "demo-secret" }).toString();
const [first] = await mintCodes(1);
const accessToken = ((await (await fetch(`${hub.base}/lti/v1/oauth2/authorize`, { method: "POST", headers: FORM, body: tokenBody(first!) })).json()) as { access_token: string }).access_token;

const rss = new RssSampler(hub.server.pid!, 1000);
console.log(`| after s | RSS MB | launches/s | user info/s | tokens/s | load average |\n|---:|---:|---:|---:|---:|---|`);
console.log(`| 0 | ${rss.sample()} | | | | ${loadAverage()} |`);
const started = Date.now();
try {
  while ((Date.now() - started) / 1000 < total) {
    const codes = await mintCodes(200);
    const [launch, info, token] = await Promise.all([
      runLoad({ label: "launch", url: `${hub.base}/launch/${people.placementId}`, connections: 4, headers: { cookie }, durationSeconds: SLICE_S }),
      runLoad({ label: "user info", url: `${hub.base}/users/v1/users/info`, connections: 2, headers: { authorization: `Bearer ${accessToken}` }, durationSeconds: SLICE_S }),
      runLoad({ label: "token", url: `${hub.base}/lti/v1/oauth2/authorize`, method: "POST", connections: 2, headers: FORM, bodies: codes.map(tokenBody) }),
    ]);
    const bad = launch.unexpected + info.unexpected + token.unexpected;
    console.log(`| ${Math.round((Date.now() - started) / 1000)} | ${rss.sample()} | ${launch.rps.toFixed(0)} | ${info.rps.toFixed(0)} | ${token.rps.toFixed(0)} | ${loadAverage()}${bad ? ` (unexpected answers: ${bad})` : ""} |`);
  }
} finally {
  const memory = rss.stop();
  console.log(`\nhub RSS: ${memory.first} MB at the start, ${memory.max} MB at most, ${memory.last} MB at the end`);
  await hub.stop();
}
