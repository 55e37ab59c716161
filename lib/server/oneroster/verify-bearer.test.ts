// The OneRoster API's bearer check: which tokens open it (401 otherwise), which scopes an
// endpoint needs (403 otherwise), and the RFC 6750 challenge of each refusal.
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { signAccessToken, signIdToken } from "@/lib/oauth/jwt";
import { ONEROSTER_SCOPES } from "@/lib/oneroster/scopes";
import { OneRosterError } from "@/lib/oneroster/status";
import { db } from "@/lib/server/db/database";
import { fromWebRequest } from "@/lib/server/http/plain-endpoint";
import { getSigningKey } from "@/lib/server/oauth/signing-keys";
import { createTestApp, TEST_ISSUER, type TTestApp } from "@/test/fixtures/oauth";
import { setupTestDatabase } from "@/test/database";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { handleOneRosterTokenRequest } from "./handle-oneroster-token-request";
import { readRostering } from "./read-rostering";
import { respondCsvExport } from "./respond-csv-export";
import { bearerChallenge, requireScope, verifyOneRosterBearer, type TOneRosterClient } from "./verify-bearer";

setupTestDatabase();
let app: TTestApp;

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "oneroster-bearer-test-secret-0123456789abcdef";
  resetEnvCache();
  app = await createTestApp("Roster");
  const network = (await createInstitution({ name: "Rede Roster", kind: "network" })).id;
  await db().edtechLink.create({ data: { institutionId: network, edtechId: app.edtechId } });
  await db().applicationAccess.create({ data: { institutionId: network, applicationId: app.id, allowedAttributes: [], anonymizedAttributes: [], oneRoster: true } });
});

/** A token from the token endpoint itself, for `application` and `scope`. */
async function issued(application: TTestApp = app, scope?: string): Promise<string> {
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: application.clientId, client_secret: application.clientSecret, ...(scope ? { scope } : {}) });
  const request = new Request(`${TEST_ISSUER}/ims/oneroster/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
  const answer = await handleOneRosterTokenRequest(fromWebRequest(request));
  expect(answer.status).toBe(200);
  return (answer.json as { access_token: string }).access_token;
}

/** The OneRosterError verifyOneRosterBearer throws for `header`. */
async function refusal(header: string | null): Promise<OneRosterError> {
  const outcome = await verifyOneRosterBearer(header).then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(OneRosterError);
  return outcome as OneRosterError;
}

async function expectUnauthorised(header: string | null): Promise<OneRosterError> {
  const error = await refusal(header);
  expect([error.codeMinor, error.httpStatus]).toEqual(["unauthorisedrequest", 401]);
  return error;
}

describe("verifyOneRosterBearer", () => {
  it("a token of the token endpoint names its application's client id and its scopes", async () => {
    const client = await verifyOneRosterBearer(`Bearer ${await issued()}`);
    expect(client).toEqual({ clientId: app.clientId, scopes: new Set([ONEROSTER_SCOPES.rosterCore, ONEROSTER_SCOPES.roster, ONEROSTER_SCOPES.rosterDemographics]) });
    // The scheme is case-insensitive (RFC 7235 §2.1).
    expect((await verifyOneRosterBearer(`bearer ${await issued()}`)).clientId).toBe(app.clientId);
  });

  it("no Authorization header: 401, and a challenge without an error (RFC 6750 §3.1)", async () => {
    for (const header of [null, "", "   "]) {
      const error = await expectUnauthorised(header);
      expect(bearerChallenge(error)).toBe('Bearer realm="OneRoster"');
    }
  });

  it("not Bearer <jwt>: 401 invalid_token", async () => {
    const token = await issued();
    for (const header of [token, `Basic ${Buffer.from("a:b").toString("base64")}`, "Bearer", `Bearer ${token} extra`, "Bearer not a token"]) {
      const error = await expectUnauthorised(header);
      expect(bearerChallenge(error)).toBe('Bearer realm="OneRoster", error="invalid_token"');
    }
  });

  it("a changed signature or payload: 401", async () => {
    const [header, payload, signature] = (await issued()).split(".");
    const flipped = `${signature!.slice(0, -4)}${signature!.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    await expectUnauthorised(`Bearer ${header}.${payload}.${flipped}`);
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    const widened = Buffer.from(JSON.stringify({ ...claims, client_id: "someone-else", sub: "someone-else" })).toString("base64url");
    await expectUnauthorised(`Bearer ${header}.${widened}.${signature}`);
  });

  /** A token signed with the hub's key as the endpoint would, with `changes`. */
  async function signed(changes: { audience?: string; subject?: string; now?: Date; expiresInSeconds?: number } = {}): Promise<string> {
    return signAccessToken({
      key: await getSigningKey(), issuer: TEST_ISSUER, audience: changes.audience ?? `${TEST_ISSUER}/ims/oneroster`,
      subject: changes.subject ?? app.clientId, clientId: app.clientId, scope: [ONEROSTER_SCOPES.roster], jti: crypto.randomUUID(),
      expiresInSeconds: changes.expiresInSeconds ?? 3600, now: changes.now ?? new Date(),
    });
  }

  it("the control token of the cases below passes", async () => {
    expect((await verifyOneRosterBearer(`Bearer ${await signed()}`)).scopes).toEqual(new Set([ONEROSTER_SCOPES.roster]));
  });

  it("an expired token: 401 saying so", async () => {
    const error = await expectUnauthorised(`Bearer ${await signed({ now: new Date(Date.now() - 2 * 3600_000) })}`);
    expect(error.description).toMatch(/expired/);
  });

  it("a token for another audience (user info's: the client) or about a person: 401", async () => {
    await expectUnauthorised(`Bearer ${await signed({ audience: app.clientId })}`);
    await expectUnauthorised(`Bearer ${await signed({ audience: `${TEST_ISSUER}/users` })}`);
    await expectUnauthorised(`Bearer ${await signed({ subject: crypto.randomUUID() })}`);
  });

  it("an id token (typ JWT, not at+jwt): 401", async () => {
    const idToken = await signIdToken({ key: await getSigningKey(), issuer: TEST_ISSUER, clientId: `${TEST_ISSUER}/ims/oneroster`, subject: app.clientId, jti: crypto.randomUUID(), expiresInSeconds: 600, now: new Date() });
    await expectUnauthorised(`Bearer ${idToken}`);
  });

  it("the application was deleted after the token was issued: its reads are 401, its export too", async () => {
    const gone = await createTestApp("Apagada");
    const network = (await createInstitution({ name: "Rede Apagada", kind: "network" })).id;
    await db().edtechLink.create({ data: { institutionId: network, edtechId: gone.edtechId } });
    await db().applicationAccess.create({ data: { institutionId: network, applicationId: gone.id, allowedAttributes: [], anonymizedAttributes: [], oneRoster: true } });
    const token = await issued(gone);
    const authorization = `Bearer ${token}`;
    const read = () => readRostering({ segments: ["orgs"], query: new URLSearchParams(), authorization });
    expect((await read()).status).toBe(200);
    await db().oAuthApplication.delete({ where: { id: gone.id } });
    // The token still verifies: whether its application exists is read with what it reaches.
    expect((await verifyOneRosterBearer(authorization)).clientId).toBe(gone.clientId);
    const refused = await read();
    expect([refused.status, refused.headers["WWW-Authenticate"]]).toEqual([401, expect.stringContaining('error="invalid_token"')]);
    expect(JSON.stringify(refused.body)).toContain("no longer exists");
    const exported = await respondCsvExport(authorization);
    expect(exported.status).toBe(401);
  });
});

describe("requireScope", () => {
  const client = (scopes: string[]): TOneRosterClient => ({ clientId: app.clientId, scopes: new Set(scopes) as TOneRosterClient["scopes"] });
  const core = [ONEROSTER_SCOPES.rosterCore, ONEROSTER_SCOPES.roster];
  const demographics = [ONEROSTER_SCOPES.rosterDemographics, ONEROSTER_SCOPES.roster];

  it("passes when the token has any of the scopes", () => {
    expect(() => requireScope(client([ONEROSTER_SCOPES.rosterCore]), core)).not.toThrow();
    expect(() => requireScope(client([ONEROSTER_SCOPES.roster]), demographics)).not.toThrow();
  });

  it("without any of them: 403 forbidden, challenged with insufficient_scope and the scopes that would do", async () => {
    const token = await issued(app, ONEROSTER_SCOPES.rosterCore);
    const verified = await verifyOneRosterBearer(`Bearer ${token}`);
    let thrown: unknown;
    try {
      requireScope(verified, demographics);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OneRosterError);
    const error = thrown as OneRosterError;
    expect([error.codeMinor, error.httpStatus]).toEqual(["forbidden", 403]);
    expect(bearerChallenge(error)).toBe(`Bearer realm="OneRoster", error="insufficient_scope", scope="${demographics.join(" ")}"`);
  });
});

describe("bearerChallenge of other errors", () => {
  it("any 401 challenges with invalid_token; other statuses, and a 403 not about scopes, have none", () => {
    expect(bearerChallenge(new OneRosterError("unauthorisedrequest"))).toBe('Bearer realm="OneRoster", error="invalid_token"');
    expect(bearerChallenge(new OneRosterError("forbidden", "Not enabled at this institution."))).toBeNull();
    expect(bearerChallenge(new OneRosterError("unknownobject"))).toBeNull();
    expect(bearerChallenge(new OneRosterError("invalid_filter_field"))).toBeNull();
  });
});
