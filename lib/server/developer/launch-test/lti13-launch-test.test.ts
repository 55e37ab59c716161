// The LTI 1.3 launch tester against the reference LTI 1.3 tool (lib/server/demo/lti13-demo-tool.ts)
// served over HTTP inside the test, and against a lax tool that accepts any id_token: a correct
// tool refuses every negative case (expired id_token, wrong aud, reused nonce, unknown kid, wrong
// deployment_id); the lax one is caught on each.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { db } from "@/lib/server/db/database";
import { respondDemo13Launch, respondDemo13Login } from "@/lib/server/demo/lti13-demo-tool";
import { setupTestDatabase } from "@/test/database";
import { createDeveloper, pngBytes, type TTestDeveloper } from "@/test/fixtures/developer";
import { createTool } from "../create-tool";
import { runLaunchTest } from "./run-launch-test";

setupTestDatabase();
let server: Server;
let base = "";
let dev: TTestDeveloper;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const request = new Request(`${base}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")])),
        body: req.method === "GET" ? undefined : Buffer.concat(chunks),
      });
      let response: Response;
      if (req.url?.startsWith("/demo-tool/lti13/login")) response = await respondDemo13Login(request);
      else if (req.url?.startsWith("/demo-tool/lti13/launch")) response = await respondDemo13Launch(request);
      else if (req.url?.startsWith("/lax/login")) {
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        const location = `${base}/lti13/authorize?nonce=n&state=s&redirect_uri=${encodeURIComponent(`${base}/lax/launch`)}&client_id=${form.get("client_id")}`;
        response = new Response(null, { status: 302, headers: { Location: location } });
      } else response = new Response("<h1>Bem-vindo</h1>", { status: 200 });
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.HUB_BASE_URL = base;
  process.env.DEMO_TOOL = "1";
  process.env.HUB_SECRET = "lti13-tester-secret-lti13-tester-secret";
  resetEnvCache();
  dev = await createDeveloper("Tester 1.3");
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function lti13Tool(paths: { login: string; launch: string }): Promise<string> {
  const { tool } = await createTool({
    actorPersonId: dev.personId,
    edtechId: dev.edtechId,
    fields: { title: `T13 ${paths.login}`, shortDescription: "x", longDescription: "y", siteUrl: "https://tool.example", launchUrl: `${base}/lti10`, consumerKey: `k-${paths.login}` },
    sharedSecret: "um-segredo-bem-longo-123",
    logo: pngBytes(),
  });
  await db().toolLti13.create({ data: { toolId: tool.id, loginUrl: `${base}${paths.login}`, targetLinkUri: `${base}${paths.launch}`, redirectUris: [`${base}${paths.launch}`], jwksUrl: `${base}/keys` } });
  return tool.id;
}

const outcome = (cases: Array<{ id: string; status: number | null; passed: boolean }>) => Object.fromEntries(cases.map((c) => [c.id, [c.status, c.passed]]));

describe("LTI 1.3 launch tester", () => {
  it("the reference LTI 1.3 tool accepts the valid launch and refuses every negative case with 401", async () => {
    const toolId = await lti13Tool({ login: "/demo-tool/lti13/login", launch: "/demo-tool/lti13/launch" });
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId, allowPrivateNetwork: true });
    expect(outcome(report.cases)).toEqual({
      valid: [200, true],
      replayed_nonce: [401, true],
      expired_id_token: [401, true],
      wrong_aud: [401, true],
      unknown_kid: [401, true],
      wrong_deployment_id: [401, true],
    });
    expect(report.passed).toBe(true);
    expect(report.launchUrl).toBe(`${base}/demo-tool/lti13/login`);
  });

  it("a lax tool that accepts any id_token fails every refusal case", async () => {
    const toolId = await lti13Tool({ login: "/lax/login", launch: "/lax/launch" });
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId, allowPrivateNetwork: true });
    expect(report.passed).toBe(false);
    expect(report.cases.find((c) => c.id === "valid")?.passed).toBe(true);
    for (const c of report.cases.filter((c) => c.id !== "valid")) expect([c.id, c.passed]).toEqual([c.id, false]);
  });

  it("a login URL that does not redirect to the hub's authorization endpoint is reported, case by case", async () => {
    const toolId = await lti13Tool({ login: "/not-a-login", launch: "/lax/launch" });
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId, allowPrivateNetwork: true });
    expect(report.cases.find((c) => c.id === "valid")).toMatchObject({ status: 200, passed: false, note: expect.stringContaining("/lti13/authorize") });
  });
});
