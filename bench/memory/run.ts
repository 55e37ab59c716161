// bench/memory: the served hub's resident memory under a school morning's mix — launches, user
// info and token exchanges at 8 connections — sampled every 10 s (docs/performance.md, "Memory").
//
//   npx tsx bench/memory/run.ts --seconds 300          # embedded database
//   DATABASE_URL=postgresql://… npx tsx bench/memory/run.ts --pg --seconds 300
import { parseArgs } from "node:util";
import { prepareDatabase, startHub } from "../lib/hub";
import { FORM_HEADERS, hubAccessToken, hubTokenBody, mintHubCodes, readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, printRss, RssSampler, runLoad } from "../lib/load";

const { values } = parseArgs({
  options: { pg: { type: "boolean", default: false }, seconds: { type: "string", default: "300" }, port: { type: "string", default: "3404" } },
});
const engine = values.pg ? "postgres" : "pglite";
const port = Number(values.port);
const total = Number(values.seconds);
const SLICE_S = 10;

console.log(`bench/memory on ${engine}: ${machineLine()}`);
const env = prepareDatabase("memory", engine, port);
const people = await readBenchPeople(env, engine);
const cookie = await sessionCookieHeader(env, people.student);
const hub = await startHub(env);

const accessToken = await hubAccessToken(hub.base, cookie);

const rss = new RssSampler(hub.server.pid!, 1000);
console.log(`| after s | RSS MB | launches/s | user info/s | tokens/s | load average |\n|---:|---:|---:|---:|---:|---|`);
console.log(`| 0 | ${rss.sample()} | | | | ${loadAverage()} |`);
const started = Date.now();
try {
  while ((Date.now() - started) / 1000 < total) {
    const codes = await mintHubCodes(hub.base, cookie, 200);
    const [launch, info, token] = await Promise.all([
      runLoad({ label: "launch", url: `${hub.base}/launch/${people.placementId}`, connections: 4, headers: { cookie }, durationSeconds: SLICE_S }),
      runLoad({ label: "user info", url: `${hub.base}/users/v1/users/info`, connections: 2, headers: { authorization: `Bearer ${accessToken}` }, durationSeconds: SLICE_S }),
      runLoad({ label: "token", url: `${hub.base}/lti/v1/oauth2/authorize`, method: "POST", connections: 2, headers: FORM_HEADERS, bodies: codes.map((code) => hubTokenBody(hub.base, code)) }),
    ]);
    const bad = launch.unexpected + info.unexpected + token.unexpected;
    console.log(`| ${Math.round((Date.now() - started) / 1000)} | ${rss.sample()} | ${launch.rps.toFixed(0)} | ${info.rps.toFixed(0)} | ${token.rps.toFixed(0)} | ${loadAverage()}${bad ? ` (unexpected answers: ${bad})` : ""} |`);
  }
} finally {
  printRss(rss);
  await hub.stop();
}
