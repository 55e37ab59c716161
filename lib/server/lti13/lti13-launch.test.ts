import { createLocalJWKSet, decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { CLAIMS } from "@/lib/lti13/claims";
import { validateLaunch } from "@/lib/lti13/validate-launch";
import { verifyLaunch } from "@/lib/lti/verify-launch";
import { pseudonymize } from "@/lib/server/data-api/pseudonym";
import { db } from "@/lib/server/db/database";
import { buildLaunch, type TBuiltLaunch } from "@/lib/server/launch/build-launch";
import { listPublicJwks } from "@/lib/server/oauth/signing-keys";
import { setupTestDatabase } from "@/test/database";
import { createSchool, createTestTool, placeTool, shareWithTool, type TSchool } from "@/test/fixtures/launch";
import { partnerIdOf, toolPartner } from "@/test/fixtures/pairwise";
import { sealSession, sessionCookie } from "@/lib/server/auth/session-cookie";
import { plainRequest } from "@/lib/server/http/plain-endpoint";
import { authorizeLti13, Lti13AuthorizationError } from "./authorize-lti13";
import { lti13AuthorizeGet, lti13AuthorizePost } from "./authorize-http";

process.env.HUB_BASE_URL = "https://hub.example.org";
process.env.HUB_SECRET = "lti13-test-secret-lti13-test-secret";
resetEnvCache();

setupTestDatabase();
let s: TSchool;

beforeAll(async () => {
  s = await createSchool();
});

const REDIRECT = "https://tool13.example/launch";

async function createLti13Tool() {
  const tool = await createTestTool({ launchUrl: "https://tool13.example/old-lti10" });
  const registration = await db().toolLti13.create({
    data: { toolId: tool.id, loginUrl: "https://tool13.example/login", targetLinkUri: REDIRECT, redirectUris: [REDIRECT], jwksUrl: "https://tool13.example/keys" },
  });
  return { tool, registration };
}

/** What the tool sends back after its login endpoint got the initiation form. */
function authenticationRequest(launch: TBuiltLaunch, overrides: Record<string, string | undefined> = {}): URLSearchParams {
  const f = new Map(launch.fields);
  const params: Record<string, string | undefined> = {
    scope: "openid",
    response_type: "id_token",
    response_mode: "form_post",
    prompt: "none",
    client_id: f.get("client_id"),
    redirect_uri: REDIRECT,
    login_hint: f.get("login_hint"),
    lti_message_hint: f.get("lti_message_hint"),
    state: "state-1",
    nonce: `nonce-${Math.random()}`,
    ...overrides,
  };
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) out.set(name, value);
  return out;
}

async function idTokenOf(launch: TBuiltLaunch, profile: TSchool["student"] | TSchool["teacher"], overrides: Record<string, string | undefined> = {}) {
  const outcome = await authorizeLti13({ params: authenticationRequest(launch, overrides), profile });
  if (outcome.kind !== "form") throw new Error("expected a form");
  expect(outcome.launch.action).toBe(REDIRECT);
  const fields = new Map(outcome.launch.fields);
  expect(fields.get("state")).toBe("state-1");
  return fields.get("id_token")!;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(Lti13AuthorizationError);
  return (error as Lti13AuthorizationError).rule;
}

describe("LTI 1.3 launch of a placement", () => {
  it("the launch page starts the tool's OIDC login with the six parameters and no personal data", async () => {
    const { tool, registration } = await createLti13Tool();
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario", "email_usuario"]);
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const launch = await buildLaunch({ placementId: placement.id, profile: s.student });
    expect(launch.action).toBe("https://tool13.example/login");
    expect(launch.toolOrigin).toBe("https://tool13.example");
    const f = new Map(launch.fields);
    expect([...f.keys()]).toEqual(["iss", "login_hint", "target_link_uri", "lti_message_hint", "client_id", "lti_deployment_id"]);
    expect(f.get("iss")).toBe("https://hub.example.org");
    expect(f.get("login_hint")).toBe(await partnerIdOf(toolPartner(tool.id), s.student.id));
    expect(f.get("client_id")).toBe(registration.clientId);
    expect(f.get("lti_deployment_id")).toBe(registration.deploymentId);
    expect(f.get("target_link_uri")).toBe(REDIRECT);
    expect(JSON.stringify(launch.fields)).not.toContain(s.student.name);
    expect(JSON.stringify(launch.fields)).not.toContain(s.student.id);
  });

  it("the id_token carries every required claim, RS256 with the hub's published key, sub = the tool's pairwise id", async () => {
    const { tool, registration } = await createLti13Tool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId, classId: s.classId, title: "Frações", customParams: { Curso: 7 } });
    const launch = await buildLaunch({ placementId: placement.id, profile: s.teacher });
    const token = await idTokenOf(launch, s.teacher);
    const result = await validateLaunch(token, {
      issuer: "https://hub.example.org",
      clientId: registration.clientId,
      keys: createLocalJWKSet({ keys: await listPublicJwks() }),
      deploymentIds: [registration.deploymentId],
      rememberNonce: async () => true,
    });
    expect(result.ok).toBe(true);
    const claims = decodeJwt(token);
    expect(claims.sub).toBe(await partnerIdOf(toolPartner(tool.id), s.teacher.id));
    expect(claims.aud).toBe(registration.clientId);
    expect(claims.azp).toBe(registration.clientId);
    expect(claims[CLAIMS.messageType]).toBe("LtiResourceLinkRequest");
    expect(claims[CLAIMS.version]).toBe("1.3.0");
    expect(claims[CLAIMS.deploymentId]).toBe(registration.deploymentId);
    expect(claims[CLAIMS.targetLinkUri]).toBe(REDIRECT);
    expect(claims[CLAIMS.resourceLink]).toEqual({ id: placement.id, title: "Frações" });
    expect(claims[CLAIMS.roles]).toEqual([
      "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
      "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Faculty",
    ]);
    expect(claims[CLAIMS.context]).toMatchObject({ id: s.classId, label: "7º ano A", title: "7º ano A · Ano letivo 2026" });
    expect(claims[CLAIMS.custom]).toEqual({ Curso: "7" });
    expect(claims[CLAIMS.launchPresentation]).toMatchObject({ return_url: "https://hub.example.org/", locale: "pt-BR" });
    expect(claims.exp! - claims.iat!).toBe(300);
  });

  it("name and email are absent when the school does not share them, present or pseudonymous when it does", async () => {
    const { tool } = await createLti13Tool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const claimsOf = async () => decodeJwt(await idTokenOf(await buildLaunch({ placementId: placement.id, profile: s.student }), s.student));
    const none = await claimsOf();
    expect(none).not.toHaveProperty("name");
    expect(none).not.toHaveProperty("email");
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario"]);
    const nameOnly = await claimsOf();
    expect(nameOnly.name).toBe(s.student.name);
    expect(nameOnly).not.toHaveProperty("email");
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario", "email_usuario"], ["email_usuario"]);
    const anonymized = await claimsOf();
    expect(anonymized.email).toBe(pseudonymize({ applicationId: tool.id, attribute: "email_usuario", value: s.student.email }));
  });

  it("refuses a reused nonce, an unregistered redirect_uri, another profile, a forged hint", async () => {
    const { tool } = await createLti13Tool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const launch = await buildLaunch({ placementId: placement.id, profile: s.student });
    await idTokenOf(launch, s.student, { nonce: "once" });
    expect(await refusal(authorizeLti13({ params: authenticationRequest(launch, { nonce: "once" }), profile: s.student }))).toBe("nonceUnused");
    expect(await refusal(authorizeLti13({ params: authenticationRequest(launch, { redirect_uri: "https://evil.example/" }), profile: s.student }))).toBe("redirectUriRegistered");
    expect(await refusal(authorizeLti13({ params: authenticationRequest(launch), profile: s.otherStudent }))).toBe("loginHintMatchesUser");
    const otherHint = await partnerIdOf(toolPartner(tool.id), s.otherStudent.id);
    expect(await refusal(authorizeLti13({ params: authenticationRequest(launch, { login_hint: otherHint }), profile: s.student }))).toBe("loginHintMatchesUser");
    expect(await refusal(authorizeLti13({ params: authenticationRequest(launch, { lti_message_hint: "x.y" }), profile: s.student }))).toBe("messageHintValid");
    expect(await refusal(authorizeLti13({ params: authenticationRequest(launch, { client_id: "not-a-client" }), profile: s.student }))).toBe("clientIdKnown");
  });

  it("asks to sign in first when there is no session", async () => {
    const { tool } = await createLti13Tool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const launch = await buildLaunch({ placementId: placement.id, profile: s.student });
    await expect(authorizeLti13({ params: authenticationRequest(launch), profile: null })).resolves.toEqual({ kind: "sign_in" });
  });

  it("a tool without an LTI 1.3 registration still gets the LTI 1.0 signed form", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const launch = await buildLaunch({ placementId: placement.id, profile: s.student });
    expect(new Map(launch.fields).get("lti_version")).toBe("LTI-1p0");
    const verified = await verifyLaunch(
      { method: "POST", url: launch.action, fields: launch.fields },
      { now: () => Math.floor(Date.now() / 1000), lookupSecret: async () => tool.secret, rememberNonce: async () => true },
    );
    expect(verified.ok).toBe(true);
  });
});

describe("the authentication request over HTTP (authorize-http.ts, also served beside Next)", () => {
  /** A request as server.mjs hands it to the endpoint: headers, a body read up to a limit, the query. */
  const request = (headers: Record<string, string>, body = "", query = "") =>
    plainRequest((name) => headers[name.toLowerCase()] ?? null, (maxBytes) => Promise.resolve(Buffer.byteLength(body) > maxBytes ? null : body), query);

  async function launchOfStudent() {
    const { tool } = await createLti13Tool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    return buildLaunch({ placementId: placement.id, profile: s.student });
  }

  async function studentCookie() {
    const { personId } = await db().profile.findUniqueOrThrow({ where: { id: s.student.id }, select: { personId: true } });
    return `${sessionCookie().name}=${await sealSession({ sub: personId, profileId: s.student.id })}`;
  }

  it("GET with the student's session: the id_token form post to the tool; without one: to sign-in, back to the same request", async () => {
    const params = authenticationRequest(await launchOfStudent());
    const signedIn = await lti13AuthorizeGet(request({ cookie: await studentCookie() }, "", params.toString()));
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    expect(signedIn.text).toContain(`action="${REDIRECT}"`);
    expect(signedIn.text).toContain('name="id_token"');

    const anonymous = await lti13AuthorizeGet(request({}, "", authenticationRequest(await launchOfStudent()).toString()));
    expect(anonymous.status).toBe(303);
    const location = new URL(anonymous.headers.Location!);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("callbackUrl")).toMatch(/^\/lti13\/authorize\?scope=openid&/);
  });

  it("POST: a form in any case of its media type; another type is a 415 page, a body over 64 KiB a 413 page", async () => {
    const params = authenticationRequest(await launchOfStudent());
    const form = await lti13AuthorizePost(request({ cookie: await studentCookie(), "content-type": "Application/X-WWW-Form-Urlencoded; charset=UTF-8" }, params.toString()));
    expect([form.status, form.text?.includes('name="id_token"')]).toEqual([200, true]);

    const json = await lti13AuthorizePost(request({ "content-type": "application/json" }, JSON.stringify(Object.fromEntries(params))));
    expect(json.status).toBe(415);
    expect(json.text).toContain("application/x-www-form-urlencoded");
    const big = await lti13AuthorizePost(request({ "content-type": "application/x-www-form-urlencoded" }, `${params.toString()}&pad=${"x".repeat(64 * 1024)}`));
    expect(big.status).toBe(413);
    expect(big.text).toContain("64 KiB");
  });

  it("a cross-site POST without the session cookie is posted again from a page of the hub, with the same fields", async () => {
    const params = authenticationRequest(await launchOfStudent());
    const answer = await lti13AuthorizePost(request({ "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" }, params.toString()));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('action="https://hub.example.org/lti13/authorize"');
    expect(answer.text).toContain(`value="${params.get("nonce")!}"`);
  });

  it("a refused request is a page with its status, in Portuguese", async () => {
    const answer = await lti13AuthorizeGet(request({ cookie: await studentCookie() }, "", authenticationRequest(await launchOfStudent(), { redirect_uri: "https://evil.example/" }).toString()));
    expect(answer.status).toBe(400);
    expect(answer.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    expect(answer.text).toContain('lang="pt-BR"');
  });
});
