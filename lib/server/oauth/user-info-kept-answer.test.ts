// User info keeps its last answer for a token in memory (get-user-info.ts, TKeptAnswer) and serves
// it again only while the statement that reads the token's row on every call shows the same stamp:
// the row versions of the application, profile, person and institution, and the sharing rules'
// version that the rule tables' triggers move (migration 20261202090000_sharing_rule_version). Each
// test first has an answer kept (two calls), then changes one thing and checks the very next call,
// in this "instance" and in a second copy of the module (another instance's memory, the same
// database). Every call, kept or not, is written to the access log.
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db, database } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { OAuthError } from "@/lib/oauth/errors";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { moveInstitution } from "@/lib/server/institutions/move-institution";
import { updateInstitution } from "@/lib/server/institutions/update-institution";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { setupTestDatabase } from "@/test/database";
import { createOAuthWorld, hubFetch, TEST_ISSUER, type TOAuthWorld } from "@/test/fixtures/oauth";
import { getUserInfo, type TUserInfo } from "./get-user-info";
import { issueTokens } from "./issue-tokens";

setupTestDatabase();
let w: TOAuthWorld;
/** A second instance: another copy of the module, with its own memory, on the same database. */
let other: typeof import("./get-user-info");

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "user-info-kept-answer-secret-0123456789ab";
  resetEnvCache();
  w = await createOAuthWorld();
  vi.resetModules();
  other = await import("./get-user-info");
});

/** A new person with a teacher's profile at school A (enabled by the network's row) and a token for it. */
async function teacherWithToken(name = "Bia Kept") {
  const person = await createPerson({ name });
  const profileId = (await createProfile({ personId: person.id, institutionId: w.schoolA, role: "professor" })).id;
  const { accessToken } = await issueTokens({ application: w.app, profileId, scope: ["user.info"], accessToken: true, idToken: false });
  return { personId: person.id, profileId, authorization: `Bearer ${accessToken!}`, jti: decodeJwt(accessToken!).jti! };
}

type TInstance = { getUserInfo: typeof getUserInfo };
const here: TInstance = { getUserInfo };

// The other copy's OAuthError is another class: an error is told by Error, which both share.
async function info(instance: TInstance, authorization: string): Promise<TUserInfo> {
  const result = await instance.getUserInfo({ authorization, relationshipId: null });
  if (result instanceof Error) throw new Error(`user info refused: ${result.description}`);
  return result;
}

async function refusal(instance: TInstance, authorization: string): Promise<string> {
  const result = await instance.getUserInfo({ authorization, relationshipId: null });
  if (!(result instanceof Error)) throw new Error("user info answered");
  return result.description ?? result.code;
}

/** Both instances answer twice (the second from their kept answer), and agree. */
async function keepIn(authorization: string): Promise<TUserInfo> {
  const first = await info(here, authorization);
  expect(await info(here, authorization)).toEqual(first);
  expect(await info(other, authorization)).toEqual(first);
  expect(await info(other, authorization)).toEqual(first);
  return first;
}

const ruleVersion = async () => (await database().sql.query<{ version: string }>(`SELECT version::text FROM "SharingRuleVersion"`))[0]!.version;

describe("user info's kept answer", () => {
  it("a changed rule at the profile's own school holds on the very next call, in every instance", async () => {
    const t = await teacherWithToken();
    const before = await keepIn(t.authorization);
    expect(Object.keys(before.usuario)).toEqual(["nome_usuario", "idade", "email_usuario"]);
    await db().applicationAccess.create({ data: { institutionId: w.schoolA, applicationId: w.app.id, allowedAttributes: ["nome_usuario"], anonymizedAttributes: ["nome_usuario"] } });
    try {
      for (const instance of [here, other]) {
        const after = await info(instance, t.authorization);
        expect(Object.keys(after.usuario)).toEqual(["nome_usuario"]);
        expect(after.usuario.nome_usuario).toMatch(/^Usuário [0-9a-f]{8}$/);
        expect(after.configuracao.conjuntoDadosUsuario).toEqual({ atributosPermitidos: ["nome_usuario"], atributosAnonimizados: ["nome_usuario"] });
      }
    } finally {
      await db().applicationAccess.deleteMany({ where: { institutionId: w.schoolA, applicationId: w.app.id } });
    }
    expect(await info(here, t.authorization)).toEqual(before);
  });

  it("a changed rule up the tree (the network's row) holds on the very next call", async () => {
    const t = await teacherWithToken();
    await keepIn(t.authorization);
    const where = { institutionId_applicationId: { institutionId: w.network, applicationId: w.app.id } };
    const saved = await db().applicationAccess.findUniqueOrThrow({ where });
    await db().applicationAccess.update({ where, data: { allowedAttributes: ["idade"], anonymizedAttributes: [] } });
    try {
      for (const instance of [here, other]) expect(Object.keys((await info(instance, t.authorization)).usuario)).toEqual(["idade"]);
    } finally {
      await db().applicationAccess.update({ where, data: { allowedAttributes: saved.allowedAttributes, anonymizedAttributes: saved.anonymizedAttributes } });
    }
  });

  it("a removed contract, or a school moved out of the network, refuses the very next call", async () => {
    const t = await teacherWithToken();
    await keepIn(t.authorization);
    await db().edtechLink.deleteMany({ where: { institutionId: w.network, edtechId: w.app.edtechId } });
    try {
      for (const instance of [here, other]) expect(await refusal(instance, t.authorization)).toBe("The institution no longer enables this application");
    } finally {
      await db().edtechLink.create({ data: { institutionId: w.network, edtechId: w.app.edtechId } });
    }
    await keepIn(t.authorization);
    const otherNetwork = (await db().institution.findFirstOrThrow({ where: { id: w.schoolC }, select: { parentId: true } })).parentId!;
    await moveInstitution({ institutionId: w.schoolA, parentId: otherNetwork });
    try {
      for (const instance of [here, other]) expect(await refusal(instance, t.authorization)).toBe("The institution no longer enables this application");
    } finally {
      await moveInstitution({ institutionId: w.schoolA, parentId: w.network });
    }
    await keepIn(t.authorization);
  });

  it("a person's or an institution's new values show on the very next call", async () => {
    const t = await teacherWithToken("Caio Antes");
    expect((await keepIn(t.authorization)).usuario.nome_usuario).toBe("Caio Antes");
    await updatePerson({ personId: t.personId, changes: { name: "Caio Depois" } });
    for (const instance of [here, other]) expect((await info(instance, t.authorization)).usuario.nome_usuario).toBe("Caio Depois");
    await keepIn(t.authorization);
    const school = await db().institution.findUniqueOrThrow({ where: { id: w.schoolA } });
    await updateInstitution({ institutionId: w.schoolA, name: "Escola A Renomeada" });
    try {
      for (const instance of [here, other]) expect((await info(instance, t.authorization)).instituicao.nome).toBe("Escola A Renomeada");
    } finally {
      await updateInstitution({ institutionId: w.schoolA, name: school.name });
    }
  });

  it("a revoked token is refused on the very next call, though its answer was kept, in every instance", async () => {
    const t = await teacherWithToken();
    await keepIn(t.authorization);
    await db().accessToken.update({ where: { jti: t.jti }, data: { revokedAt: new Date() } });
    for (const instance of [here, other]) expect(await refusal(instance, t.authorization)).toBe("The access token was revoked");
  });

  it("a kept answer still checks x-relationship-id and expiry on every call", async () => {
    const t = await teacherWithToken();
    const kept = await keepIn(t.authorization);
    const wrong = await getUserInfo({ authorization: t.authorization, relationshipId: kept.sub.replace(/^./, (c) => (c === "0" ? "1" : "0")) });
    expect(wrong).toBeInstanceOf(OAuthError);
    expect((wrong as OAuthError).code).toBe("access_denied");
    expect(await getUserInfo({ authorization: t.authorization, relationshipId: kept.sub.toUpperCase() })).toEqual(kept);
    const later = await getUserInfo({ authorization: t.authorization, relationshipId: null, now: new Date(Date.now() + 2 * 3600_000) });
    expect((later as OAuthError).description).toBe("The access token expired");
  });

  it("every call is written to the access log, kept answers included, through the HTTP endpoint too", async () => {
    const t = await teacherWithToken();
    const count = async () => {
      await flushAccessLogs();
      return db().dataAccessLog.count({ where: { profileId: t.profileId, channel: "user_info" } });
    };
    await info(here, t.authorization);
    for (let i = 0; i < 3; i++) {
      const response = await hubFetch(`${TEST_ISSUER}/users/v1/users/info`, { headers: { authorization: t.authorization } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.json()).toEqual(await info(here, t.authorization));
    }
    expect(await count()).toBe(7);
    const row = await db().dataAccessLog.findFirstOrThrow({ where: { profileId: t.profileId, channel: "user_info" } });
    expect(row.attributes).toEqual(["nome_usuario", "idade", "email_usuario"]);
    expect(row.institutionId).toBe(w.schoolA);
  });

  it("the sharing rules' version moves once per transaction that changes a rule, a contract or the tree, at its commit, and not for a rollback", async () => {
    const v0 = await ruleVersion();
    await db().$transaction(async (tx) => {
      await tx.applicationAccess.create({ data: { institutionId: w.schoolA, applicationId: w.otherApp.id, allowedAttributes: [], anonymizedAttributes: [] } });
      await tx.applicationAccess.deleteMany({ where: { institutionId: w.schoolA, applicationId: w.otherApp.id } });
    });
    const v1 = await ruleVersion();
    expect(v1).not.toBe(v0);
    await expect(
      db().$transaction(async (tx) => {
        await tx.edtechLink.create({ data: { institutionId: w.schoolC, edtechId: w.app.edtechId } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await ruleVersion()).toBe(v1);
    // A write to an institution that does not move it (its name) leaves the rules' version alone.
    const school = await db().institution.findUniqueOrThrow({ where: { id: w.schoolB } });
    await updateInstitution({ institutionId: w.schoolB, name: `${school.name} `.trim() });
    expect(await ruleVersion()).toBe(v1);
  });
});
