// Every curl example of docs/*.md runs, as written, against the served hub: the base URL becomes
// this server's, and the few placeholders a reader fills in (a code from the browser, a school id)
// are filled from a real flow. A block passes when every call in it answers below 500, matches
// the statuses and `error` values its comments show, and is 2xx where it shows none.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, signInByForm, test } from "./fixtures";
import type { APIRequestContext } from "@playwright/test";

const DOCS = path.join(process.cwd(), "docs");
const DOC_BASE = "http://localhost:3000";

interface Example {
  file: string;
  line: number;
  code: string;
}

function examples(): Example[] {
  const found: Example[] = [];
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith(".md")).sort()) {
    const lines = readFileSync(path.join(DOCS, file), "utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const open = /^(\s*)```(sh|bash|shell)\s*$/.exec(lines[i]!);
      if (!open) continue;
      const indent = open[1]!.length;
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!.slice(indent));
      if (body.some((l) => /\bcurl\b/.test(l))) found.push({ file, line: i + 1, code: body.join("\n") });
      i = j;
    }
  }
  return found;
}

/** A fresh authorization code for the demo application, through the real flow (one-profile student). */
async function freshCode(request: APIRequestContext, baseURL: string): Promise<{ code: string; userId: string }> {
  await signInByForm(request, baseURL, "aluno@demo.hub.br");
  const query = new URLSearchParams({ client_id: "demo-app", redirect_uri: `${baseURL}/demo-app/callback`, response_type: "code", scope: "user.info", state: "by-hand" });
  const authorized = await request.get(`/lti/v1/oauth2/authorize?${query}`, { maxRedirects: 0 });
  expect(authorized.status()).toBe(302);
  const location = new URL(authorized.headers().location!);
  return { code: location.searchParams.get("code")!, userId: location.searchParams.get("user_id")! };
}

async function accessToken(request: APIRequestContext, code: string): Promise<string> {
  const response = await request.post("/lti/v1/oauth2/authorize", { data: { grant_type: "authorization_code", client_id: "demo-app", client_secret: "demo-secret", code } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

const all = examples();

test("the docs have curl examples to run", () => {
  expect(all.length).toBeGreaterThanOrEqual(8);
});

for (const example of all) {
  test(`docs/${example.file}:${example.line} runs as written`, async ({ playwright, baseURL }) => {
    const student = await playwright.request.newContext({ baseURL });
    const { code, userId } = await freshCode(student, baseURL!);
    const token = await accessToken(student, (await freshCode(student, baseURL!)).code);
    await student.dispose();
    const manager = await playwright.request.newContext({ baseURL });
    const schoolId = await demoSchoolId(manager, baseURL!);
    await manager.dispose();

    const script = example.code
      .replaceAll(DOC_BASE, baseURL!)
      .replaceAll(encodeURIComponent(`${DOC_BASE}/`), encodeURIComponent(`${baseURL}/`))
      .replaceAll("<school id>", schoolId)
      .replaceAll("<the code>", code)
      .replaceAll("<the user_id>", userId);
    // Each call's status goes to stderr, after whatever the example prints itself.
    const wrapped = `curl() { command curl -w '%{stderr}HTTP_STATUS %{http_code}\\n' "$@"; }\nset -eo pipefail\n${script}`;
    const run = spawnSync("bash", ["-c", wrapped], { env: { ...process.env, CODE: code, USER_ID: userId, ACCESS_TOKEN: token }, encoding: "utf8", timeout: 30_000 });
    const output = run.stdout;
    expect(run.status, `docs/${example.file}:${example.line} exited ${run.status}\n${output}\n${run.stderr}`).toBe(0);
    const statuses = [...run.stderr.matchAll(/HTTP_STATUS (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses.length, "every curl answered").toBeGreaterThan(0);
    for (const status of statuses) expect(status, output).toBeLessThan(500);
    const shownStatuses = [...example.code.matchAll(/^# HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    const shownErrors = [...example.code.matchAll(/^# \{"error":"([a-z_]+)"/gm)].map((m) => m[1]!);
    if (shownStatuses.length === 0 && shownErrors.length === 0) for (const status of statuses) expect(status, output).toBeLessThan(300);
    expect(statuses.slice(0, shownStatuses.length)).toEqual(shownStatuses);
    for (const error of shownErrors) expect(output).toContain(`"error":"${error}"`);
  });
}

/** The id of EMEF Monteiro Lobato, as its manager's pages show it. */
async function demoSchoolId(request: APIRequestContext, baseURL: string): Promise<string> {
  await signInByForm(request, baseURL, "gestor@demo.hub.br", "/gestao");
  const html = await (await request.get("/gestao")).text();
  const id = /href="\/gestao\/([0-9a-f-]{36})"[^>]*>EMEF Monteiro Lobato</.exec(html)?.[1];
  expect(id).toBeDefined();
  return id!;
}
