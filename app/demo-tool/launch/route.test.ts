// POST /demo-tool/launch through the real route handler, with launches built by the hub's own
// launch builder (lib/server/launch/build-launch) and variants re-signed with lib/lti.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { signLaunch } from "@/lib/lti/sign-launch";
import { buildLaunch } from "@/lib/server/launch/build-launch";
import { createSchool, createTestTool, placeTool, shareWithTool, type TSchool } from "@/test/fixtures/launch";
import { setupTestDatabase } from "@/test/database";
import { POST } from "./route";
import { partnerIdOf, toolPartner } from "@/test/fixtures/pairwise";

process.env.HUB_BASE_URL = "http://hub.test";
process.env.HUB_SECRET = "demo-tool-test-secret-demo-tool-test-secret";
process.env.DEMO_TOOL = "1";
resetEnvCache();

const LAUNCH_URL = "http://hub.test/demo-tool/launch";
const FORM = "application/x-www-form-urlencoded";

setupTestDatabase();
let s: TSchool;
let tool: Awaited<ReturnType<typeof createTestTool>>;
let placementId = "";

beforeAll(async () => {
  s = await createSchool();
  tool = await createTestTool({ title: "Ferramenta de Demonstração", launchUrl: LAUNCH_URL, consumerKey: "demo-key", secret: "demo-secret" });
  placementId = (await placeTool({ toolId: tool.id, institutionId: s.schoolId })).id;
  await shareWithTool(s.schoolId, tool.id, ["nome_usuario", "email_usuario"], ["email_usuario"]);
});

afterEach(() => {
  process.env.DEMO_TOOL = "1";
  resetEnvCache();
});

type Fields = Array<[string, string]>;

/** Posts as a browser would, at an internal address: the handler must use HUB_BASE_URL instead. */
async function post(fields: Fields, options: { query?: string; contentType?: string; body?: string } = {}) {
  const request = new Request(`http://10.0.0.7:3000/demo-tool/launch${options.query ?? ""}`, {
    method: "POST",
    headers: { "content-type": options.contentType ?? FORM, host: "evil.example" },
    body: options.body ?? new URLSearchParams(fields).toString(),
  });
  const response = await POST(request);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

async function teacherLaunch(): Promise<Fields> {
  return (await buildLaunch({ placementId, profile: s.teacher })).fields;
}

/** Re-signs the launch's LTI fields after `edit`, as a differently configured consumer would. */
function resign(fields: Fields, options: { secret?: string; consumerKey?: string; timestamp?: number; launchUrl?: string; edit?: (p: Record<string, string>) => void }): Fields {
  const params = Object.fromEntries(fields.filter(([n]) => !n.startsWith("oauth_")));
  options.edit?.(params);
  return signLaunch({
    launchUrl: options.launchUrl ?? LAUNCH_URL,
    consumerKey: options.consumerKey ?? "demo-key",
    consumerSecret: options.secret ?? "demo-secret",
    params,
    callbackUrl: "http://hub.test/",
    timestamp: options.timestamp,
  }).fields;
}

/** Whatever a refusal shows, it is none of the launch's user data. */
function expectNoPrivateContent(text: string): void {
  for (const secret of [s.teacher.id, s.teacher.name, s.teacher.email, "anonimo.invalid", "Instructor", "lis_person", "user_id", s.schoolId]) {
    expect(text).not.toContain(secret);
  }
}

describe("a valid launch", () => {
  it("is 200 and shows the profile id, the LIS role, the resource link and the shared fields", async () => {
    const fields = await teacherLaunch();
    const { status, text, headers } = await post(fields);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(text).toContain(`<code id="lti-user-id">${await partnerIdOf(toolPartner(tool.id), s.teacher.id)}</code>`);
    expect(text).toContain(`<code id="lti-roles">Instructor</code>`);
    expect(text).toContain(placementId);
    expect(text).toContain(s.teacher.name);
    expect(text).not.toContain(s.teacher.email);
    expect(text).toMatch(/u[0-9a-f]{16}@anonimo\.invalid/);
    expect(text).toContain("Voltar ao Hub");
  });

  it("accepts a guardian's launch and shows Mentor", async () => {
    const { status, text } = await post((await buildLaunch({ placementId, profile: s.guardian })).fields);
    expect(status).toBe(200);
    expect(text).toContain(`<code id="lti-roles">Mentor</code>`);
    expect(text).toContain(await partnerIdOf(toolPartner(tool.id), s.guardian.id));
  });
});

describe("each failure is a 401 naming the rule, with no private content", () => {
  const cases: Array<[string, string, () => Promise<{ fields: Fields; query?: string; contentType?: string; body?: string }>]> = [
    ["a replayed launch", "nonceUnused", async () => {
      const fields = await teacherLaunch();
      expect((await post(fields)).status).toBe(200);
      return { fields };
    }],
    ["a tampered parameter", "signatureMatches", async () => {
      const fields = (await teacherLaunch()).map(([n, v]): [string, string] => [n, n === "roles" ? "urn:lti:role:ims/lis/Administrator" : v]);
      return { fields };
    }],
    ["a wrong secret", "signatureMatches", async () => ({ fields: resign(await teacherLaunch(), { secret: "not-the-secret" }) })],
    ["an unknown consumer key", "consumerKeyKnown", async () => ({ fields: resign(await teacherLaunch(), { consumerKey: "nobody" }) })],
    ["a missing consumer key", "consumerKeyPresent", async () => ({ fields: (await teacherLaunch()).filter(([n]) => n !== "oauth_consumer_key") })],
    ["a launch-URL query parameter the signature left out", "signatureMatches", async () => ({ fields: await teacherLaunch(), query: "?course=7" })],
    // 30 s past the 300 s window: the launch is verified some time after it is signed, and on a
    // loaded machine that gap can pass a second (lib/lti/verify-launch.test.ts pins the boundary
    // itself with an injected clock).
    ["a timestamp 330 s old", "timestampWithinWindow", async () => ({ fields: resign(await teacherLaunch(), { timestamp: Math.floor(Date.now() / 1000) - 330 }) })],
    ["a timestamp 330 s in the future", "timestampWithinWindow", async () => ({ fields: resign(await teacherLaunch(), { timestamp: Math.floor(Date.now() / 1000) + 330 }) })],
    ["a wrong lti_message_type", "ltiMessageTypeIsBasicLaunch", async () => ({ fields: resign(await teacherLaunch(), { edit: (p) => { p.lti_message_type = "ContentItemSelectionRequest"; } }) })],
    ["a wrong lti_version", "ltiVersionIs1p0", async () => ({ fields: resign(await teacherLaunch(), { edit: (p) => { p.lti_version = "LTI-1p3"; } }) })],
    ["a missing resource_link_id", "resourceLinkIdPresent", async () => ({ fields: resign(await teacherLaunch(), { edit: (p) => { delete p.resource_link_id; } }) })],
    ["a body that is not form-encoded", "consumerKeyPresent", async () => {
      const fields = await teacherLaunch();
      return { fields, contentType: "application/json", body: JSON.stringify(Object.fromEntries(fields)) };
    }],
    ["a body over 64 KiB", "consumerKeyPresent", async () => {
      const fields = await teacherLaunch();
      return { fields, body: `${new URLSearchParams(fields).toString()}&pad=${"x".repeat(70_000)}` };
    }],
    ["an oauth_* parameter sent twice", "oauthParamsUnique", async () => {
      const fields = await teacherLaunch();
      return { fields: [...fields, ["oauth_nonce", "other"]] };
    }],
  ];

  for (const [name, rule, arrange] of cases) {
    it(`${name} → ${rule}`, async () => {
      const { fields, ...options } = await arrange();
      const { status, text, headers } = await post(fields, options);
      expect(status).toBe(401);
      expect(headers.get("cache-control")).toBe("no-store");
      expect(text).toContain(`<code id="lti-rule">${rule}</code>`);
      expectNoPrivateContent(text);
    });
  }

  it("a key registered for another tool endpoint is unknown here", async () => {
    const elsewhere = await createTestTool({ launchUrl: "https://elsewhere.example/launch", consumerKey: "elsewhere-key", secret: "elsewhere-secret" });
    const fields = resign(await teacherLaunch(), { consumerKey: elsewhere.consumerKey, secret: elsewhere.secret });
    const { status, text } = await post(fields);
    expect(status).toBe(401);
    expect(text).toContain("consumerKeyKnown");
  });

  it("a consumer key registered here with two different secrets is refused rather than guessed", async () => {
    await createTestTool({ launchUrl: LAUNCH_URL, consumerKey: "twice", secret: "first" });
    await createTestTool({ launchUrl: LAUNCH_URL, consumerKey: "twice", secret: "second" });
    const { status, text } = await post(resign(await teacherLaunch(), { consumerKey: "twice", secret: "first" }));
    expect(status).toBe(401);
    expect(text).toContain("consumerKeyKnown");
  });
});

it("is 404 when DEMO_TOOL is off", async () => {
  process.env.DEMO_TOOL = "0";
  resetEnvCache();
  const { status, text } = await post(await teacherLaunch());
  expect(status).toBe(404);
  expectNoPrivateContent(text);
});
