// Per-role sharing rules in every channel (issue #14 point 1, docs/decisions/015): "teachers:
// e-mail shared; students: not". The Data API (through its route), user info and the id_token
// (through the OAuth endpoints), the LTI launch form and "Meus dados" each follow the rule of the
// role of the profile the data is about. Records are told apart by perfil and name, never by id:
// the ids that leave the hub are the partner's own.
import { decodeJwt } from "jose";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as dataGet } from "@/app/manager/v1/data/[orgId]/route";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createPkcePair } from "@/lib/oauth/pkce";
import { createPartner, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";
import type { TRoleOverrides } from "@/lib/server/data-api/privacy";
import { buildLaunch } from "@/lib/server/launch/build-launch";
import { createSchool, createTestTool, placeTool, type TSchool } from "@/test/fixtures/launch";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { decideAuthorization } from "@/lib/server/oauth/decide-authorization";
import { createOAuthWorld, createTestApp, hubFetch, TEST_ISSUER, type TOAuthWorld, type TTestApp } from "@/test/fixtures/oauth";
import type { TPersonalAttribute } from "@/lib/validations/data-api";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { setupTestDatabase } from "@/test/database";
import { listPartnersForProfile } from "@/lib/server/privacy/list-partners-for-profile";

setupTestDatabase();

beforeAll(() => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "per-role-sharing-secret-0123456789abcdef";
  resetEnvCache();
});

type TRule = { allowed: TPersonalAttribute[]; anonymized?: TPersonalAttribute[]; roles?: TRoleOverrides };
const row = (rule: TRule) => ({
  allowedAttributes: rule.allowed,
  anonymizedAttributes: rule.anonymized ?? [],
  roleOverrides: (rule.roles ?? {}) as Prisma.InputJsonObject,
});
const setApplicationRule = (institutionId: string, applicationId: string, rule: TRule) =>
  db().applicationAccess.upsert({
    where: { institutionId_applicationId: { institutionId, applicationId } },
    create: { institutionId, applicationId, ...row(rule) },
    update: row(rule),
  });
const setToolRule = (institutionId: string, toolId: string, rule: TRule) =>
  db().toolSharing.upsert({ where: { institutionId_toolId: { institutionId, toolId } }, create: { institutionId, toolId, ...row(rule) }, update: row(rule) });

/** The base shares the name only; teachers also their e-mail. */
const TEACHERS_EMAIL: TRule = { allowed: ["nome_usuario"], roles: { professor: { allowedAttributes: ["nome_usuario", "email_usuario"], anonymizedAttributes: [] } } };

interface TDataBody {
  configuracao: { conjuntoDadosUsuario: { atributosPermitidos: string[]; atributosAnonimizados: string[]; porPerfil?: Record<string, unknown> } };
  dados: { usuario: { registro: Record<string, unknown> }[] };
}

async function readUsuarios(partner: TPartner, orgId: string): Promise<{ body: TDataBody; text: string }> {
  await waitForVisibleEvents();
  const url = new URL(`/manager/v1/data/${orgId}?only=usuario&limit=1000`, TEST_ISSUER);
  const response = await dataGet(new NextRequest(url, { headers: { "x-api-key": partner.key } }), { params: Promise.resolve({ orgId }) });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { body: JSON.parse(text) as TDataBody, text };
}

/** The latest record of the person named `name`. */
const recordOf = (body: TDataBody, name: string) => body.dados.usuario.filter((e) => e.registro.nome_usuario === name).at(-1)?.registro;

describe("Data API: each usuario record with its perfil's rule", () => {
  let s: TSchool;
  let app: TPartner;
  beforeAll(async () => {
    s = await createSchool();
    app = await createPartner("PorPerfil");
    await linkEdtech(s.networkId, app.edtechId);
    await setApplicationRule(s.networkId, app.applicationId, TEACHERS_EMAIL);
  });

  it("a page carries the teacher's e-mail and not the student's; configuracao says so with porPerfil", async () => {
    const { body, text } = await readUsuarios(app, s.schoolId);
    expect(recordOf(body, s.teacher.name)).toMatchObject({ perfil: "professor", email_usuario: s.teacher.email });
    const student = recordOf(body, s.student.name)!;
    expect(student.perfil).toBe("aluno");
    expect(student).not.toHaveProperty("email_usuario");
    expect(text).not.toContain(s.student.email);
    const conjunto = body.configuracao.conjuntoDadosUsuario;
    expect(conjunto.atributosPermitidos).toEqual(["nome_usuario", "email_usuario"]);
    expect(conjunto.atributosAnonimizados).toEqual([]);
    expect(conjunto.porPerfil).toEqual({
      aluno: { atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] },
      professor: { atributosPermitidos: ["nome_usuario", "email_usuario"], atributosAnonimizados: [] },
      responsavel: { atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] },
      gestor: { atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] },
    });
  });

  it("a network-wide read takes, per role, the most restrictive of the network's rule and each school's own", async () => {
    // The school anonymizes teachers' e-mails and shares nothing of students.
    await setApplicationRule(s.schoolId, app.applicationId, {
      allowed: ["nome_usuario", "email_usuario"],
      roles: { professor: { allowedAttributes: ["nome_usuario", "email_usuario"], anonymizedAttributes: ["email_usuario"] }, aluno: { allowedAttributes: [], anonymizedAttributes: [] } },
    });
    const network = await readUsuarios(app, s.networkId);
    const teachers = network.body.dados.usuario.filter((e) => e.registro.perfil === "professor").map((e) => e.registro);
    expect(teachers.length).toBeGreaterThan(0);
    for (const t of teachers) expect(t.email_usuario).toMatch(/@anonimo\.invalid$/);
    for (const e of network.body.dados.usuario.filter((e) => e.registro.perfil === "aluno")) {
      expect(e.registro).not.toHaveProperty("nome_usuario");
      expect(e.registro).not.toHaveProperty("email_usuario");
    }
    expect(network.text).not.toContain(s.teacher.email);
    expect(network.text).not.toContain(s.student.name);
    // The school's own read follows its own row; the sibling school's, the network's.
    const school = await readUsuarios(app, s.schoolId);
    expect(recordOf(school.body, s.teacher.name)!.email_usuario).toMatch(/@anonimo\.invalid$/);
    expect(school.text).not.toContain(s.student.name);
    const sibling = await readUsuarios(app, s.otherSchoolId);
    expect(sibling.body.dados.usuario.find((e) => e.registro.perfil === "professor")!.registro.email_usuario).toMatch(/@escola\.test$/);
    await db().applicationAccess.delete({ where: { institutionId_applicationId: { institutionId: s.schoolId, applicationId: app.applicationId } } });
  });
});

describe("Data API feed: an update is delivered when it changed what the record's role lets the partner see", () => {
  it("a teacher's e-mail change reaches a partner that receives teachers' e-mails; a student's does not", async () => {
    const s = await createSchool();
    const app = await createPartner("PorPerfilFeed");
    await linkEdtech(s.networkId, app.edtechId);
    await setApplicationRule(s.networkId, app.applicationId, TEACHERS_EMAIL);
    const first = await readUsuarios(app, s.schoolId);
    const cursor = (first.body as unknown as { paginacao: { cursorRetomada: string } }).paginacao.cursorRetomada;

    const personOf = async (profileId: string) => (await db().profile.findUniqueOrThrow({ where: { id: profileId }, select: { personId: true } })).personId;
    const tag = Date.now().toString(36);
    await updatePerson({ personId: await personOf(s.teacher.id), changes: { email: `nova.professora.${tag}@escola.test` } });
    await updatePerson({ personId: await personOf(s.student.id), changes: { email: `novo.aluno.${tag}@escola.test` } });
    await waitForVisibleEvents();
    const url = new URL(`/manager/v1/data/${s.schoolId}?only=usuario&limit=1000&cursor=${encodeURIComponent(cursor)}`, TEST_ISSUER);
    const response = await dataGet(new NextRequest(url, { headers: { "x-api-key": app.key } }), { params: Promise.resolve({ orgId: s.schoolId }) });
    const text = await response.text();
    const events = (JSON.parse(text) as TDataBody).dados.usuario.map((e) => e.registro);
    expect(events.map((r) => r.perfil)).toEqual(["professor"]);
    expect(events[0]!.email_usuario).toBe(`nova.professora.${tag}@escola.test`);
    expect(text).not.toContain(`novo.aluno.${tag}`);
  });
});

describe("user info and id_token: the signed-in profile's role", () => {
  let w: TOAuthWorld;
  let app: TTestApp;
  beforeAll(async () => {
    w = await createOAuthWorld();
    app = await createTestApp("PorPerfilOidc");
    await db().edtechLink.create({ data: { institutionId: w.network, edtechId: app.edtechId } });
    await setApplicationRule(w.network, app.id, TEACHERS_EMAIL);
  });

  /** Signs `profileId` in (the code flow with PKCE) and reads user info with the access token. */
  async function signIn(profileId: string, personId: string) {
    const pkce = createPkcePair();
    const query = new URLSearchParams({
      client_id: app.clientId, redirect_uri: app.redirectUri, response_type: "code", scope: "user.info openid", state: "s",
      code_challenge: pkce.challenge, code_challenge_method: "S256",
    });
    const outcome = await decideAuthorization({ query, session: { personId, profileId }, step: "continue" });
    if (outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${outcome.kind}`);
    const code = new URL(outcome.location).searchParams.get("code") ?? "";
    const tokenResponse = await hubFetch(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code", client_id: app.clientId, client_secret: app.clientSecret, code, code_verifier: pkce.verifier }),
    });
    const tokens = (await tokenResponse.json()) as { access_token: string; id_token?: string };
    expect(tokenResponse.status).toBe(200);
    const info = await hubFetch(`${TEST_ISSUER}/users/v1/users/info`, { headers: { authorization: `Bearer ${tokens.access_token}`, accept: "application/json" } });
    expect(info.status).toBe(200);
    return { info: (await info.json()) as { perfil: string; usuario: Record<string, unknown>; configuracao: TDataBody["configuracao"] }, idToken: tokens.id_token };
  }

  it("a teacher's user info carries her e-mail; a student's does not; each configuracao is that role's rule", async () => {
    const teacher = await signIn(w.teacherA, w.personId);
    expect(teacher.info.perfil).toBe("professor");
    expect(teacher.info.usuario.email_usuario).toMatch(/@escola\.test$/);
    expect(teacher.info.configuracao.conjuntoDadosUsuario).toEqual({ atributosPermitidos: ["nome_usuario", "email_usuario"], atributosAnonimizados: [] });

    const student = await signIn(w.soloA, w.soloPersonId);
    expect(student.info.perfil).toBe("aluno");
    expect(student.info.usuario).toEqual({ nome_usuario: "Solo Teste" });
    expect(student.info.configuracao.conjuntoDadosUsuario).toEqual({ atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] });

    // The id_token carries no personal attribute whatever the role's rule (only its subject).
    for (const { idToken } of [teacher, student]) {
      const claims = decodeJwt(idToken ?? "");
      expect(Object.keys(claims)).not.toEqual(expect.arrayContaining(["email", "name", "email_usuario", "nome_usuario"]));
      expect(JSON.stringify(claims)).not.toContain("@escola.test");
    }
  });
});

describe("LTI launch and Meus dados: the launching profile's role", () => {
  let s: TSchool;
  let toolId: string;
  let placementId: string;
  beforeAll(async () => {
    s = await createSchool();
    const tool = await createTestTool();
    toolId = tool.id;
    placementId = (await placeTool({ toolId, institutionId: s.schoolId })).id;
    await setToolRule(s.schoolId, toolId, TEACHERS_EMAIL);
  });

  const fields = async (profile: TActingProfile) => new Map((await buildLaunch({ placementId, profile })).fields);

  it("the teacher's launch form carries lis_person_contact_email_primary; the student's does not", async () => {
    const teacher = await fields(s.teacher);
    expect(teacher.get("lis_person_name_full")).toBe(s.teacher.name);
    expect(teacher.get("lis_person_contact_email_primary")).toBe(s.teacher.email);
    const student = await fields(s.student);
    expect(student.get("lis_person_name_full")).toBe(s.student.name);
    expect(student.has("lis_person_contact_email_primary")).toBe(false);
  });

  it("a role may share less than the base: guardians' names anonymized, students' nothing", async () => {
    await setToolRule(s.schoolId, toolId, {
      allowed: ["nome_usuario", "email_usuario"],
      roles: { aluno: { allowedAttributes: [], anonymizedAttributes: [] }, responsavel: { allowedAttributes: ["nome_usuario"], anonymizedAttributes: ["nome_usuario"] } },
    });
    const student = await fields(s.student);
    expect([...student.keys()].filter((k) => k.startsWith("lis_person_"))).toEqual([]);
    expect((await fields(s.guardian)).get("lis_person_name_full")).toMatch(/^Usuário [0-9a-f]{8}$/);
    expect((await fields(s.teacher)).get("lis_person_contact_email_primary")).toBe(s.teacher.email);
    await setToolRule(s.schoolId, toolId, TEACHERS_EMAIL);
  });

  it("Meus dados lists the e-mail as shared for the teacher and not for the student", async () => {
    const attributesFor = async (profile: TSchool["teacher"]) =>
      (await listPartnersForProfile({ profile })).find((p) => p.id === toolId)?.attributes.map((a) => a.attribute);
    expect(await attributesFor(s.teacher)).toEqual(["nome_usuario", "email_usuario"]);
    expect(await attributesFor(s.student)).toEqual(["nome_usuario"]);
  });
});
