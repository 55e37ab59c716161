// The institution's access log for the OAuth channels: each user-info read and each id token
// issued is one DataAccessLog row, at the profile's institution, naming the attributes returned,
// never their values.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { setupTestDatabase } from "@/test/database";
import { decideAuthorization } from "./decide-authorization";
import { createOAuthWorld, hubFetch, TEST_ISSUER, type TOAuthWorld } from "@/test/fixtures/oauth";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";

setupTestDatabase();
let w: TOAuthWorld;
let person: { name: string; email: string | null; cpf: string | null; phone: string | null };

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "oauth-access-log-secret-0123456789abcdef";
  resetEnvCache();
  w = await createOAuthWorld();
  person = await db().person.findUniqueOrThrow({ where: { id: w.personId }, select: { name: true, email: true, cpf: true, phone: true } });
});

async function authorize(profileId: string, params: Record<string, string>): Promise<URL> {
  const query = new URLSearchParams({ client_id: w.app.clientId, redirect_uri: w.app.redirectUri, scope: "user.info openid", state: "s", ...params });
  const outcome = await decideAuthorization({ query, session: { personId: w.personId, profileId }, step: "continue" });
  if (outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${outcome.kind}`);
  return new URL(outcome.location);
}

/**
 * The rows for this profile that are not in `before` (ids), after the pending writes landed. By
 * id, not by time: createdAt is rounded to the millisecond, so a row written just before a
 * timestamp taken in JS can carry a later one.
 */
async function rowsSince(before: Set<string>, profileId: string) {
  await flushAccessLogs();
  const rows = await db().dataAccessLog.findMany({ where: { profileId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.filter((r) => !before.has(r.id));
}

/** The ids of this profile's rows now, after the pending writes landed. */
async function currentRows(profileId: string): Promise<Set<string>> {
  await flushAccessLogs();
  return new Set((await db().dataAccessLog.findMany({ where: { profileId }, select: { id: true } })).map((r) => r.id));
}

function expectNoValues(rows: unknown) {
  const text = JSON.stringify(rows);
  for (const value of [person.name, person.email, person.cpf, person.phone, "1988-04-05"]) if (value) expect(text).not.toContain(value);
}

describe("the OAuth channels in the institution's access log", () => {
  it("an id token issued by the implicit flow: one id_token row naming its personal claim", async () => {
    const since = await currentRows(w.teacherA);
    const location = await authorize(w.teacherA, { response_type: "id_token", nonce: "n-log" });
    expect(new URLSearchParams(location.hash.slice(1)).get("id_token")).toBeTruthy();
    const rows = await rowsSince(since, w.teacherA);
    expect(rows.map((r) => [r.channel, r.applicationId, r.applicationName, r.institutionId, r.attributes, r.status])).toEqual([
      ["id_token", w.app.id, "Parceiro App", w.schoolA, ["sub"], 200],
    ]);
  });

  it("a code exchange issues an id token (one row); user info read with its access token (one row naming the attributes)", async () => {
    const location = await authorize(w.teacherA, { response_type: "code" });
    const since = await currentRows(w.teacherA);
    const exchange = await hubFetch(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code", client_id: w.app.clientId, client_secret: w.app.clientSecret, code: location.searchParams.get("code") }),
    });
    expect(exchange.status).toBe(200);
    const { access_token: accessToken } = (await exchange.json()) as { access_token: string };
    const info = await hubFetch(`${TEST_ISSUER}/users/v1/users/info`, { headers: { authorization: `Bearer ${accessToken}`, "x-relationship-id": (await partnerIdOf(applicationPartner(w.app.id), w.teacherA)) } });
    expect(info.status).toBe(200);
    const body = (await info.json()) as { usuario: Record<string, string> };
    // The network shares nome, idade and e-mail (anonymized) with this application.
    expect(Object.keys(body.usuario).sort()).toEqual(["email_usuario", "idade", "nome_usuario"]);

    const rows = await rowsSince(since, w.teacherA);
    expect(rows.map((r) => [r.channel, r.applicationName, r.institutionId, [...r.attributes].sort(), r.status])).toEqual([
      ["id_token", "Parceiro App", w.schoolA, ["sub"], 200],
      ["user_info", "Parceiro App", w.schoolA, ["email_usuario", "idade", "nome_usuario"], 200],
    ]);
    expectNoValues(rows);
  });

  it("a replayed code and a refused user-info read log nothing", async () => {
    const location = await authorize(w.guardianB, { response_type: "code" });
    const code = location.searchParams.get("code");
    const exchange = (c: string | null) =>
      hubFetch(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "authorization_code", client_id: w.app.clientId, client_secret: w.app.clientSecret, code: c }),
      });
    const { access_token: accessToken } = (await (await exchange(code)).json()) as { access_token: string };
    const since = await currentRows(w.guardianB); // with the first exchange's row
    expect((await exchange(code)).status).toBe(400);
    // The replay revoked the token issued from the code: user info refuses it.
    expect((await hubFetch(`${TEST_ISSUER}/users/v1/users/info`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(401);
    expect(await rowsSince(since, w.guardianB)).toEqual([]);
  });
});
