// POST /ims/oneroster/token (issue #43 point 2, docs/oneroster.md "Conectar"), through its real
// route handler with fetch-style Requests, as a OneRoster client calls it: client credentials
// with client_secret_basic or client_secret_post, the 1.2 scopes, the errors of RFC 6749 §5.2,
// the JWT checked by `jose` against the published JWKS, and tokens of one API refused by the other.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as jwksGet } from "@/app/.well-known/jwks.json/route";
import { POST as hubTokenPost } from "@/app/lti/v1/oauth2/authorize/route";
import { POST as oneRosterTokenPost, GET as oneRosterTokenGet } from "@/app/ims/oneroster/token/route";
import { GET as userInfoGet } from "@/app/users/v1/users/info/route";
import { resetEnvCache } from "@/lib/env";
import { ALL_ONEROSTER_SCOPES, ONEROSTER_SCOPES } from "@/lib/oneroster/scopes";
import { OneRosterError } from "@/lib/oneroster/status";
import { db } from "@/lib/server/db/database";
import { issueTokens } from "@/lib/server/oauth/issue-tokens";
import { verifyOneRosterBearer } from "@/lib/server/oneroster/verify-bearer";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createOAuthWorld, createTestApp, grantApplication, TEST_ISSUER, type TOAuthWorld, type TTestApp } from "@/test/fixtures/oauth";
import { setupTestDatabase } from "@/test/database";

setupTestDatabase();
let w: TOAuthWorld;
/** OneRoster on at a network with no contract with its edtech: the rule is not in force. */
let uncontracted: TTestApp;

const TOKEN_URL = `${TEST_ISSUER}/ims/oneroster/token`;
const AUDIENCE = `${TEST_ISSUER}/ims/oneroster`;

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "oneroster-token-test-secret-0123456789abcdef";
  resetEnvCache();
  w = await createOAuthWorld();
  await db().applicationAccess.updateMany({ where: { applicationId: w.app.id, institutionId: w.network }, data: { oneRoster: true } });
  uncontracted = await createTestApp("Sem Contrato");
  const elsewhere = (await createInstitution({ name: "Rede Sem Contrato", kind: "network" })).id;
  await grantApplication(elsewhere, uncontracted.id, ["nome_usuario"]);
  await db().applicationAccess.updateMany({ where: { applicationId: uncontracted.id }, data: { oneRoster: true } });
});

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

async function token(form: Record<string, string> | string, init: { authorization?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = { "content-type": init.contentType ?? "application/x-www-form-urlencoded" };
  if (init.authorization) headers.authorization = init.authorization;
  const body = typeof form === "string" ? form : new URLSearchParams(form).toString();
  const response = await oneRosterTokenPost(new Request(TOKEN_URL, { method: "POST", headers, body }));
  return { response, body: (await response.json()) as Record<string, unknown> };
}

const withBasic = (app: TTestApp, form: Record<string, string> = {}) => token({ grant_type: "client_credentials", ...form }, { authorization: basic(app.clientId, app.clientSecret) });
const withPost = (app: TTestApp, form: Record<string, string> = {}) => token({ grant_type: "client_credentials", client_id: app.clientId, client_secret: app.clientSecret, ...form });

async function publishedKeys() {
  const response = await jwksGet();
  return createLocalJWKSet((await response.json()) as { keys: JWK[] });
}

describe("POST /ims/oneroster/token: success", () => {
  it("client_secret_basic, no scope: all three scopes, a Bearer token for one hour, never cached", async () => {
    const { response, body } = await withBasic(w.app);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: ALL_ONEROSTER_SCOPES.join(" ") });
  });

  it("client_secret_post with a subset of the scopes: the token carries only those", async () => {
    const { response, body } = await withPost(w.app, { scope: ONEROSTER_SCOPES.rosterCore });
    expect(response.status).toBe(200);
    expect(body.scope).toBe(ONEROSTER_SCOPES.rosterCore);
    const client = await verifyOneRosterBearer(`Bearer ${String(body.access_token)}`);
    expect([...client.scopes]).toEqual([ONEROSTER_SCOPES.rosterCore]);
    expect(client.clientId).toBe(w.app.clientId);
  });

  it("the token is an RS256 at+jwt that an independent library verifies against /.well-known/jwks.json", async () => {
    const { body } = await withBasic(w.app, { scope: `${ONEROSTER_SCOPES.rosterDemographics} ${ONEROSTER_SCOPES.roster}` });
    const accessToken = String(body.access_token);
    const { payload, protectedHeader } = await jwtVerify(accessToken, await publishedKeys(), {
      issuer: TEST_ISSUER, audience: AUDIENCE, typ: "at+jwt", algorithms: ["RS256"],
    });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toMatchObject({ client_id: w.app.clientId, sub: w.app.clientId, scope: `${ONEROSTER_SCOPES.roster} ${ONEROSTER_SCOPES.rosterDemographics}` });
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload.exp! - payload.iat!).toBe(3600);
    // A second token is another token (its own jti), and nothing is stored for either.
    const again = await withBasic(w.app);
    const second = await jwtVerify(String(again.body.access_token), await publishedKeys(), { issuer: TEST_ISSUER, audience: AUDIENCE });
    expect(second.payload.jti).not.toBe(payload.jti);
    expect(await db().accessToken.count({ where: { jti: { in: [payload.jti!, second.payload.jti!] } } })).toBe(0);
  });
});

describe("POST /ims/oneroster/token: refusals (RFC 6749 §5.2)", () => {
  it("a wrong secret is 401 invalid_client with a Basic challenge, by either method", async () => {
    for (const attempt of [
      token({ grant_type: "client_credentials" }, { authorization: basic(w.app.clientId, "wrong") }),
      token({ grant_type: "client_credentials", client_id: w.app.clientId, client_secret: "wrong" }),
      token({ grant_type: "client_credentials" }, { authorization: basic("nobody", "wrong") }),
    ]) {
      const { response, body } = await attempt;
      expect(response.status).toBe(401);
      expect(body.error).toBe("invalid_client");
      expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("no client authentication at all is 401 invalid_client", async () => {
    const { response, body } = await token({ grant_type: "client_credentials" });
    expect([response.status, body.error]).toEqual([401, "invalid_client"]);
  });

  it("another grant type is 400 unsupported_grant_type; none is invalid_request", async () => {
    const other = await withBasic(w.app, { grant_type: "authorization_code", code: "x" });
    expect([other.response.status, other.body.error]).toEqual([400, "unsupported_grant_type"]);
    const none = await token({}, { authorization: basic(w.app.clientId, w.app.clientSecret) });
    expect([none.response.status, none.body.error]).toEqual([400, "invalid_request"]);
  });

  it("an unknown scope, even beside a known one, is 400 invalid_scope", async () => {
    for (const scope of ["user.info", `${ONEROSTER_SCOPES.rosterCore} https://purl.imsglobal.org/spec/or/v1p2/scope/gradebook.readonly`, "roster-core.readonly"]) {
      const { response, body } = await withBasic(w.app, { scope });
      expect([response.status, body.error]).toEqual([400, "invalid_scope"]);
    }
  });

  it("an application no institution enabled OneRoster for is 400 unauthorized_client", async () => {
    const { response, body } = await withBasic(w.otherApp);
    expect([response.status, body.error]).toEqual([400, "unauthorized_client"]);
  });

  it("OneRoster switched on where the edtech has no contract is not in force: 400 unauthorized_client", async () => {
    const { response, body } = await withBasic(uncontracted);
    expect([response.status, body.error]).toEqual([400, "unauthorized_client"]);
  });

  it("a JSON body or an untyped one is 400 invalid_request; a repeated parameter too", async () => {
    const json = await token(JSON.stringify({ grant_type: "client_credentials" }), { authorization: basic(w.app.clientId, w.app.clientSecret), contentType: "application/json" });
    expect([json.response.status, json.body.error]).toEqual([400, "invalid_request"]);
    const repeated = await token("grant_type=client_credentials&grant_type=client_credentials", { authorization: basic(w.app.clientId, w.app.clientSecret) });
    expect([repeated.response.status, repeated.body.error]).toEqual([400, "invalid_request"]);
  });

  it("a body over the limit is 400 invalid_request, never read whole", async () => {
    const { response, body } = await withBasic(w.app, { padding: "x".repeat(20_000) });
    expect([response.status, body.error]).toEqual([400, "invalid_request"]);
  });

  it("GET is 405 with Allow: POST", async () => {
    const response = oneRosterTokenGet();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("POST");
  });

  it("the hub's own token endpoint still refuses client_credentials (the contract's unsupported_grant_type)", async () => {
    const response = await hubTokenPost(new Request(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(w.app.clientId, w.app.clientSecret) },
      body: "grant_type=client_credentials",
    }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("unsupported_grant_type");
  });
});

describe("one API's token is refused by the other", () => {
  it("user info refuses a OneRoster token with 401 invalid_token", async () => {
    const { body } = await withBasic(w.app);
    const response = await userInfoGet(new Request(`${TEST_ISSUER}/users/v1/users/info`, { headers: { authorization: `Bearer ${String(body.access_token)}` } }));
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_token");
  });

  it("OneRoster refuses user info's access token and id token with 401 unauthorisedrequest", async () => {
    const issued = await issueTokens({ application: { id: w.app.id, clientId: w.app.clientId }, profileId: w.teacherA, scope: ["user.info"], accessToken: true, idToken: true });
    // Both are ours and valid for user info…
    const info = await userInfoGet(new Request(`${TEST_ISSUER}/users/v1/users/info`, { headers: { authorization: `Bearer ${issued.accessToken}` } }));
    expect(info.status).toBe(200);
    expect(decodeProtectedHeader(issued.accessToken!).typ).toBe("at+jwt");
    // …and neither opens OneRoster.
    for (const presented of [issued.accessToken!, issued.idToken!]) {
      const refusal = await verifyOneRosterBearer(`Bearer ${presented}`).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(OneRosterError);
      expect([(refusal as OneRosterError).codeMinor, (refusal as OneRosterError).httpStatus]).toEqual(["unauthorisedrequest", 401]);
    }
  });
});
