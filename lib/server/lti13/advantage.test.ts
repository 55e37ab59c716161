// Deep Linking 2.0 and NRPS 2.0 against the services, with a tool key registered as a public JWK
// (no network): what the hub accepts from a tool, what it refuses, and what it lets the tool read.
import { decodeJwt, importJWK, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { CLAIMS, NRPS_CLAIM, NRPS_SCOPE } from "@/lib/lti13/claims";
import { generateSigningKey, type SigningKey } from "@/lib/oauth/jwt";
import { OAuthError } from "@/lib/oauth/errors";
import { db } from "@/lib/server/db/database";
import { buildLaunch, type TBuiltLaunch } from "@/lib/server/launch/build-launch";
import { setupTestDatabase } from "@/test/database";
import { createSchool, createTestTool, placeTool, shareWithTool, type TSchool } from "@/test/fixtures/launch";
import { partnerIdOf, toolPartner } from "@/test/fixtures/pairwise";
import { authorizeLti13 } from "./authorize-lti13";
import { receiveDeepLinking, startDeepLinking } from "./deep-linking";
import { issueServiceToken, listMemberships } from "./services";

process.env.HUB_BASE_URL = "https://hub.example.org";
process.env.HUB_SECRET = "lti13-adv-secret-lti13-adv-secret";
resetEnvCache();

setupTestDatabase();
let s: TSchool;
let toolKey: SigningKey;
let otherKey: SigningKey;
const HUB = "https://hub.example.org";
const REDIRECT = "https://tool13.example/launch";

beforeAll(async () => {
  s = await createSchool();
  [toolKey, otherKey] = await Promise.all([generateSigningKey(), generateSigningKey()]);
});

async function createTool() {
  const tool = await createTestTool();
  const { kty, n, e, kid } = toolKey.publicJwk;
  const registration = await db().toolLti13.create({
    data: { toolId: tool.id, loginUrl: "https://tool13.example/login", targetLinkUri: REDIRECT, redirectUris: [REDIRECT], publicJwk: { kty, n, e, kid }, deepLinkingUrl: REDIRECT },
  });
  return { tool, registration };
}

async function idToken(launch: TBuiltLaunch, profile: TSchool["teacher"]) {
  const f = new Map(launch.fields);
  const params = new URLSearchParams({
    scope: "openid",
    response_type: "id_token",
    response_mode: "form_post",
    client_id: f.get("client_id")!,
    redirect_uri: REDIRECT,
    login_hint: f.get("login_hint")!,
    lti_message_hint: f.get("lti_message_hint")!,
    nonce: `n-${Math.random()}`,
  });
  const outcome = await authorizeLti13({ params, profile });
  if (outcome.kind !== "form") throw new Error("expected a form");
  return decodeJwt(new Map(outcome.launch.fields).get("id_token")!);
}

async function toolJwt(payload: Record<string, unknown>, options: { iss: string; aud: string; key?: SigningKey; expSeconds?: number }) {
  const key = options.key ?? toolKey;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "RS256", kid: key.kid })
    .setIssuer(options.iss)
    .setAudience(options.aud)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expSeconds ?? 60))
    .sign(await importJWK(key.privateJwk, "RS256"));
}

describe("Deep Linking 2.0", () => {
  it("a teacher of the class opens the picker; the tool's signed response becomes placements for the class", async () => {
    const { tool, registration } = await createTool();
    await placeTool({ toolId: tool.id, institutionId: s.schoolId }); // the edtech's contract
    const launch = await startDeepLinking({ toolId: tool.id, classId: s.classId, profile: s.teacher });
    expect(new Map(launch.fields).get("target_link_uri")).toBe(REDIRECT);
    const request = await idToken(launch, s.teacher);
    expect(request[CLAIMS.messageType]).toBe("LtiDeepLinkingRequest");
    expect(request).not.toHaveProperty([CLAIMS.resourceLink]);
    const settings = request[CLAIMS.deepLinkingSettings] as { deep_link_return_url: string; data: string };
    expect(settings.deep_link_return_url).toBe(`${HUB}/lti13/deep-linking`);
    expect(request[CLAIMS.context]).toMatchObject({ id: s.classId });

    const response = {
      nonce: "dl-1",
      [CLAIMS.messageType]: "LtiDeepLinkingResponse",
      [CLAIMS.version]: "1.3.0",
      [CLAIMS.deploymentId]: registration.deploymentId,
      [CLAIMS.data]: settings.data,
      [CLAIMS.contentItems]: [
        { type: "ltiResourceLink", title: "Frações 1", url: REDIRECT, custom: { atividade: "f1" } },
        { type: "link", url: "https://elsewhere.example" },
        { type: "ltiResourceLink", title: "Frações 2" },
      ],
    };
    const jwt = await toolJwt(response, { iss: registration.clientId, aud: HUB });
    const result = await receiveDeepLinking({ jwt });
    expect(result.placementIds).toHaveLength(2);
    const placements = await db().placement.findMany({ where: { id: { in: result.placementIds } }, orderBy: { title: "asc" } });
    expect(placements.map((p) => [p.title, p.classId, p.institutionId, p.customParams])).toEqual([
      ["Frações 1", s.classId, s.schoolId, { atividade: "f1" }],
      ["Frações 2", s.classId, s.schoolId, {}],
    ]);
    // Replayed: the nonce was used.
    await expect(receiveDeepLinking({ jwt })).rejects.toThrow(/nonceUnused/);
    // Signed by a key the tool did not register; for another hub; with someone else's data.
    await expect(receiveDeepLinking({ jwt: await toolJwt({ ...response, nonce: "dl-2" }, { iss: registration.clientId, aud: HUB, key: otherKey }) })).rejects.toThrow(/kidKnown|signatureValid/);
    await expect(receiveDeepLinking({ jwt: await toolJwt({ ...response, nonce: "dl-3" }, { iss: registration.clientId, aud: "https://other-hub.example" }) })).rejects.toThrow(/audienceIsHub/);
    await expect(receiveDeepLinking({ jwt: await toolJwt({ ...response, nonce: "dl-4", [CLAIMS.data]: "forged.data" }, { iss: registration.clientId, aud: HUB }) })).rejects.toThrow(/dataValid/);
    await expect(receiveDeepLinking({ jwt: await toolJwt({ ...response, nonce: "dl-5", [CLAIMS.deploymentId]: "other" }, { iss: registration.clientId, aud: HUB }) })).rejects.toThrow(/deploymentIdMatches/);
  });

  it("only the class's own teacher may open the picker", async () => {
    const { tool } = await createTool();
    await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    for (const profile of [s.student, s.guardian, s.outsider]) {
      await expect(startDeepLinking({ toolId: tool.id, classId: s.classId, profile })).rejects.toMatchObject({ code: "not_found" });
    }
    await expect(startDeepLinking({ toolId: tool.id, classId: s.otherClassId, profile: s.teacher })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("NRPS 2.0", () => {
  async function token(clientId: string, options: { jti?: string; key?: SigningKey; scope?: string } = {}) {
    const assertion = await toolJwt({ sub: clientId, jti: options.jti ?? `j-${Math.random()}` }, { iss: clientId, aud: `${HUB}/lti13/token`, key: options.key });
    return issueServiceToken(
      new URLSearchParams({
        grant_type: "client_credentials",
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: assertion,
        scope: options.scope ?? NRPS_SCOPE,
      }),
    );
  }

  it("the launch of a class placement carries the memberships URL; the tool reads members with a client-credentials token, paged", async () => {
    const { tool, registration } = await createTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId, classId: s.classId });
    const claims = await idToken(await buildLaunch({ placementId: placement.id, profile: s.teacher }), s.teacher);
    const url = (claims[NRPS_CLAIM] as { context_memberships_url: string }).context_memberships_url;
    expect(url).toBe(`${HUB}/lti13/memberships/${s.classId}`);

    const { access_token: accessToken, scope } = await token(registration.clientId);
    expect(scope).toBe(NRPS_SCOPE);
    const authorization = `Bearer ${accessToken}`;
    const page1 = await listMemberships({ authorization, classId: s.classId, query: new URLSearchParams("limit=1") });
    const firstId = (page1.body as { members: Array<{ user_id: string }> }).members[0]!.user_id;
    expect(page1.next).toBe(`${url}?limit=1&after=${firstId}`);
    const page2 = await listMemberships({ authorization, classId: s.classId, query: new URLSearchParams(new URL(page1.next!).search) });
    expect(page2.next).toBeNull();
    const members = [...(page1.body as { members: Array<Record<string, unknown>> }).members, ...(page2.body as { members: Array<Record<string, unknown>> }).members];
    expect(members.map((m) => m.user_id).sort()).toEqual(
      [await partnerIdOf(toolPartner(tool.id), s.student.id), await partnerIdOf(toolPartner(tool.id), s.teacher.id)].sort(),
    );
    // Nothing shared: no names, no e-mails.
    for (const member of members) expect(Object.keys(member).sort()).toEqual(["roles", "status", "user_id"]);
    expect(members.map((m) => m.roles).flat().sort()).toEqual([
      "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
      "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",
    ]);

    await shareWithTool(s.schoolId, tool.id, ["nome_usuario"]);
    const shared = await listMemberships({ authorization, classId: s.classId, query: new URLSearchParams() });
    expect((shared.body as { members: Array<{ name?: string; email?: string }> }).members.map((m) => m.name).sort()).toEqual([s.student.name, s.teacher.name].sort());
    expect((shared.body as { members: Array<{ email?: string }> }).members.every((m) => m.email === undefined)).toBe(true);
  });

  it("pages from the last member read: one who leaves between two pages makes no other member skipped", async () => {
    const { tool, registration } = await createTool();
    await placeTool({ toolId: tool.id, institutionId: s.schoolId, classId: s.classId });
    const authorization = `Bearer ${(await token(registration.clientId)).access_token}`;
    const page1 = await listMemberships({ authorization, classId: s.classId, query: new URLSearchParams("limit=1") });
    const [first] = (page1.body as { members: Array<{ user_id: string }> }).members;
    const leaving = (await partnerIdOf(toolPartner(tool.id), s.student.id)) === first!.user_id ? s.student.id : s.teacher.id;
    const staying = leaving === s.student.id ? s.teacher.id : s.student.id;
    // The first page's member leaves the class before the tool asks for the second page.
    const enrolments = await db().classStudent.findMany({ where: { classId: s.classId, studentId: leaving } });
    const teaching = await db().subjectTeacher.findMany({ where: { classId: s.classId, teacherId: leaving } });
    await db().classStudent.deleteMany({ where: { id: { in: enrolments.map((e) => e.id) } } });
    await db().subjectTeacher.deleteMany({ where: { id: { in: teaching.map((t) => t.id) } } });
    try {
      const page2 = await listMemberships({ authorization, classId: s.classId, query: new URLSearchParams(new URL(page1.next!).search) });
      expect((page2.body as { members: Array<{ user_id: string }> }).members.map((m) => m.user_id)).toEqual([await partnerIdOf(toolPartner(tool.id), staying)]);
    } finally {
      await db().classStudent.createMany({ data: enrolments });
      await db().subjectTeacher.createMany({ data: teaching });
    }
    // `after` that is not a member id of this tool's form is a 400, not a first page.
    await expect(listMemberships({ authorization, classId: s.classId, query: new URLSearchParams("after=2") })).rejects.toMatchObject({ code: "invalid_request", status: 400 });
  });

  it("refuses a replayed assertion, another key, no NRPS scope, a class the tool is not placed in, a missing token", async () => {
    const { tool, registration } = await createTool();
    await placeTool({ toolId: tool.id, institutionId: s.schoolId, classId: s.classId });
    await token(registration.clientId, { jti: "same" });
    await expect(token(registration.clientId, { jti: "same" })).rejects.toMatchObject({ code: "invalid_client" });
    await expect(token(registration.clientId, { key: otherKey })).rejects.toMatchObject({ code: "invalid_client" });
    await expect(token(registration.clientId, { scope: "https://purl.imsglobal.org/spec/lti-ags/scope/score" })).rejects.toMatchObject({ code: "invalid_scope" });
    const { access_token: accessToken } = await token(registration.clientId);
    const other = await listMemberships({ authorization: `Bearer ${accessToken}`, classId: s.otherClassId, query: new URLSearchParams() }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(OAuthError);
    expect((other as OAuthError).status).toBe(404);
    await expect(listMemberships({ authorization: null, classId: s.classId, query: new URLSearchParams() })).rejects.toMatchObject({ code: "invalid_token" });
  });
});
