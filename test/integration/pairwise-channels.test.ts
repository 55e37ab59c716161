// Acceptance (issue #14, point 2): two applications of different edtechs and a tool see the same
// people. No identifier of a person, profile, link or person event appears in the outputs of two
// partners (Data API page, redirect, token response, id_token and access token claims, user info,
// launch form, OneRoster users and enrollments (issue #43)), while one application's ids agree across its own channels and the ids it sends
// back (Data API user_id, x-relationship-id) are accepted, and another application's refused.
// Everything goes through the route handlers, as a partner calls them.
import { decodeJwt } from "jose";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as dataGet } from "@/app/manager/v1/data/[orgId]/route";
import { GET as summaryGet } from "@/app/manager/v1/summary/[orgId]/route";
import { readRostering } from "@/lib/server/oneroster/read-rostering";
import { oneRosterToken, waitForOneRosterCut } from "@/test/fixtures/oneroster";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { createApiKey } from "@/lib/server/api-keys/create-api-key";
import { waitForVisibleEvents } from "@/test/fixtures/data-api";
import { buildLaunch } from "@/lib/server/launch/build-launch";
import { createSchool, createTestTool, placeTool, shareWithTool, type TSchool } from "@/test/fixtures/launch";
import { decideAuthorization } from "@/lib/server/oauth/decide-authorization";
import { createTestApp, grantApplication, hubFetch, TEST_ISSUER, type TTestApp } from "@/test/fixtures/oauth";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { setupTestDatabase } from "@/test/database";

setupTestDatabase();

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const uuidsIn = (text: string) => new Set((text.match(UUID) ?? []).map((id) => id.toLowerCase()));

interface TAppOutputs {
  app: TTestApp;
  key: string;
  /** Each channel's raw text as the partner received it. */
  texts: Record<string, string>;
  data: { dados: Record<string, { id: string; registro: Record<string, unknown> }[]> };
  userId: string;
  idTokenSub: string;
  accessTokenSub: string;
  userInfo: { sub: string; user_id: string };
  oneRoster: { users: { sourcedId: string; userMasterIdentifier: string }[]; enrollments: { sourcedId: string; user: { sourcedId: string } }[] };
}

let s: TSchool;
let enrollmentLink = "";
const apps: TAppOutputs[] = [];
let launchText = "";
/** Ids that may be shared: they name no person (schools, classes, subjects, periods, their events, placements). */
const shareable = new Set<string>();
/** Every global id of a person, profile, link record or event about a person. */
const personal = new Set<string>();

async function dataApi(orgId: string, key: string, query = ""): Promise<{ status: number; text: string }> {
  const request = new NextRequest(new URL(`/manager/v1/data/${orgId}${query}`, TEST_ISSUER), { headers: { "x-api-key": key } });
  const response = await dataGet(request, { params: Promise.resolve({ orgId }) });
  return { status: response.status, text: await response.text() };
}

async function signIn(app: TTestApp, profileId: string): Promise<{ location: URL; tokenText: string; accessToken: string; idToken: string }> {
  const profile = await db().profile.findUniqueOrThrow({ where: { id: profileId }, select: { personId: true } });
  const query = new URLSearchParams({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: "code", scope: "openid user.info", state: "s", nonce: "n" });
  const outcome = await decideAuthorization({ query, session: { personId: profile.personId, profileId }, step: "continue" });
  if (outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${outcome.kind}`);
  const location = new URL(outcome.location);
  const response = await hubFetch(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "authorization_code", client_id: app.clientId, client_secret: app.clientSecret, code: location.searchParams.get("code") }),
  });
  const tokenText = await response.text();
  expect(response.status, tokenText).toBe(200);
  const tokens = JSON.parse(tokenText) as { access_token: string; id_token: string };
  return { location, tokenText, accessToken: tokens.access_token, idToken: tokens.id_token };
}

/** A OneRoster collection as the application reads it (client credentials token, then the REST binding). */
async function oneRoster(app: TTestApp, collection: string): Promise<string> {
  const access_token = await oneRosterToken(app);
  const answer = await readRostering({ segments: [collection], query: new URLSearchParams({ limit: "1000" }), authorization: `Bearer ${access_token}` });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return JSON.stringify(answer.body);
}

function userInfo(accessToken: string, relationshipId?: string): Promise<Response> {
  return hubFetch(`${TEST_ISSUER}/users/v1/users/info`, {
    headers: { authorization: `Bearer ${accessToken}`, ...(relationshipId ? { "x-relationship-id": relationshipId } : {}) },
  });
}

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "pairwise-channels-test-secret-0123456789";
  resetEnvCache();
  s = await createSchool();
  enrollmentLink = (await linkGuardian({ guardianId: s.guardian.id, studentId: s.student.id, kinship: "pai" })).id;

  for (const name of ["Leitura", "Matemática"]) {
    const app = await createTestApp(name);
    await db().edtechLink.create({ data: { institutionId: s.networkId, edtechId: app.edtechId } });
    await grantApplication(s.networkId, app.id, ["nome_usuario", "email_usuario"], ["email_usuario"]);
    const { key } = await createApiKey({ applicationId: app.id, name: "teste" });
    await db().applicationAccess.updateMany({ where: { applicationId: app.id }, data: { oneRoster: true } });
    apps.push({ app, key, texts: {}, data: { dados: {} }, userId: "", idTokenSub: "", accessTokenSub: "", userInfo: { sub: "", user_id: "" }, oneRoster: { users: [], enrollments: [] } });
  }
  await waitForVisibleEvents();
  await waitForOneRosterCut();
  for (const out of apps) {
    const users = await oneRoster(out.app, "users");
    const enrollments = await oneRoster(out.app, "enrollments");
    out.texts.oneRoster = `${users}\n${enrollments}`;
    out.oneRoster = { users: (JSON.parse(users) as TAppOutputs["oneRoster"]).users, enrollments: (JSON.parse(enrollments) as TAppOutputs["oneRoster"]).enrollments };
    const data = await dataApi(s.schoolId, out.key);
    expect(data.status).toBe(200);
    out.texts.data = data.text;
    out.data = JSON.parse(data.text) as TAppOutputs["data"];
    const signedIn = await signIn(out.app, s.teacher.id);
    out.texts.redirect = signedIn.location.toString();
    out.texts.token = signedIn.tokenText;
    out.texts.idToken = JSON.stringify(decodeJwt(signedIn.idToken));
    out.texts.accessToken = JSON.stringify(decodeJwt(signedIn.accessToken));
    out.userId = signedIn.location.searchParams.get("user_id")!;
    out.idTokenSub = decodeJwt(signedIn.idToken).sub!;
    out.accessTokenSub = decodeJwt(signedIn.accessToken).sub!;
    const info = await userInfo(signedIn.accessToken, out.userId);
    out.texts.userInfo = await info.text();
    expect(info.status, out.texts.userInfo).toBe(200);
    out.userInfo = JSON.parse(out.texts.userInfo) as TAppOutputs["userInfo"];
  }

  const tool = await createTestTool();
  const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
  await shareWithTool(s.schoolId, tool.id, ["nome_usuario"]);
  const launches = await Promise.all([s.teacher, s.student, s.guardian].map((profile) => buildLaunch({ placementId: placement.id, profile })));
  launchText = JSON.stringify(launches.map((l) => l.fields));

  for (const row of await db().institution.findMany({ select: { id: true } })) shareable.add(row.id);
  for (const row of await db().class.findMany({ select: { id: true } })) shareable.add(row.id);
  for (const row of await db().subject.findMany({ select: { id: true } })) shareable.add(row.id);
  for (const row of await db().period.findMany({ select: { id: true } })) shareable.add(row.id);
  shareable.add(placement.id);
  // Events about schools, classes, subjects and periods keep their global ids too.
  const otherEvents = await db().changeEvent.findMany({ where: { entity: { in: ["turma", "disciplina", "periodo"] } }, select: { id: true } });
  for (const row of otherEvents) shareable.add(row.id);
  for (const row of await db().person.findMany({ select: { id: true } })) personal.add(row.id);
  for (const row of await db().profile.findMany({ select: { id: true } })) personal.add(row.id);
  for (const row of await db().classStudent.findMany({ select: { id: true } })) personal.add(row.id);
  for (const row of await db().guardianStudent.findMany({ select: { id: true } })) personal.add(row.id);
  for (const row of await db().subjectTeacher.findMany({ select: { id: true } })) personal.add(row.id);
  const personEvents = await db().changeEvent.findMany({ where: { entity: { in: ["usuario", "turmaAluno", "responsavelAluno", "disciplinaProfessor"] } }, select: { id: true } });
  for (const row of personEvents) personal.add(row.id);
});

const allText = (out: TAppOutputs) => Object.values(out.texts).join("\n");

describe("pairwise identifiers across partners", () => {
  it("the fixtures reach every channel: people, links and person events in both feeds, three launches", () => {
    for (const out of apps) {
      for (const entity of ["usuario", "turmaAluno", "responsavelAluno", "disciplinaProfessor"]) expect(out.data.dados[entity]?.length, entity).toBeGreaterThan(0);
    }
    expect(personal.size).toBeGreaterThan(20);
    expect(enrollmentLink).toBeTruthy();
  });

  it("no global id of a person, profile, link or person event leaves the hub in any channel", () => {
    for (const [name, text] of [...apps.flatMap((out, i) => Object.entries(out.texts).map(([channel, t]) => [`app${i} ${channel}`, t] as const)), ["launch", launchText] as const]) {
      const leaked = [...uuidsIn(text)].filter((id) => personal.has(id));
      expect(leaked, name).toEqual([]);
    }
  });

  it("no id is shared by two partners except those of schools, classes, subjects, periods and placements", () => {
    const partners = [uuidsIn(allText(apps[0]!)), uuidsIn(allText(apps[1]!)), uuidsIn(launchText)];
    for (const [a, b] of [[0, 1], [0, 2], [1, 2]] as const) {
      const common = [...partners[a]!].filter((id) => partners[b]!.has(id) && !shareable.has(id));
      expect(common, `partners ${a} and ${b}: ${JSON.stringify(common)}`).toEqual([]);
    }
    // The non-personal ids are the same for everyone.
    expect(partners[0]!.has(s.schoolId) && partners[1]!.has(s.schoolId)).toBe(true);
    expect(partners[0]!.has(s.classId) && partners[1]!.has(s.classId)).toBe(true);
  });

  it("the ids are valid RFC 9562 UUIDs (version and variant kept)", () => {
    for (const out of apps) {
      for (const id of [out.userId, out.idTokenSub, ...out.data.dados.usuario!.map((e) => e.registro.pessoaId as string)]) {
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
    }
  });

  it("one application's ids agree across its channels: redirect user_id = sub = user info = its Data API usuario id", () => {
    for (const out of apps) {
      expect(out.idTokenSub).toBe(out.userId);
      expect(out.accessTokenSub).toBe(out.userId);
      expect(out.userInfo).toMatchObject({ sub: out.userId, user_id: out.userId });
      expect(JSON.parse(out.texts.token!)).toMatchObject({ user_id: out.userId });
      const teacherRecords = out.data.dados.usuario!.filter((e) => e.registro.id === out.userId);
      expect(teacherRecords.length).toBeGreaterThan(0);
      expect(teacherRecords[0]!.registro).toMatchObject({ perfil: "professor", instituicaoId: s.schoolId });
      // Its links name the same profile ids as its usuario records: the application can join its own data.
      const profileIds = new Set(out.data.dados.usuario!.map((e) => e.registro.id));
      for (const e of out.data.dados.disciplinaProfessor!) expect(profileIds.has(e.registro.professorId)).toBe(true);
      for (const e of out.data.dados.turmaAluno!) expect(profileIds.has(e.registro.alunoId)).toBe(true);
      for (const e of out.data.dados.responsavelAluno!) expect([e.registro.alunoId, e.registro.responsavelId].every((id) => profileIds.has(id))).toBe(true);
      // One person, one pessoaId per application, whatever the profile.
      expect(new Set(teacherRecords.map((e) => e.registro.pessoaId)).size).toBe(1);
      // OneRoster: the signed-in profile is a user whose sourcedId is the sub, and whose
      // userMasterIdentifier is the Data API's pessoaId; enrollments name the same users.
      const user = out.oneRoster.users.find((u) => u.sourcedId === out.userId);
      expect(user, "the sign-in's sub is a OneRoster user").toBeDefined();
      expect(user!.userMasterIdentifier).toBe(teacherRecords[0]!.registro.pessoaId);
      // Every profile of the school's Data API read is a OneRoster user of the same id (OneRoster reads the whole network).
      const oneRosterIds = new Set(out.oneRoster.users.map((u) => u.sourcedId));
      expect([...profileIds].filter((id) => !oneRosterIds.has(String(id)))).toEqual([]);
      const links = new Set([...out.data.dados.turmaAluno!, ...out.data.dados.disciplinaProfessor!].map((e) => e.registro.id));
      const schoolEnrollments = out.oneRoster.enrollments.filter((e) => profileIds.has(e.user.sourcedId));
      expect(schoolEnrollments.length).toBeGreaterThan(0);
      for (const e of schoolEnrollments) expect(links.has(e.sourcedId)).toBe(true);
    }
  });

  it("the Data API's user_id filter (data and summary) accepts the application's own id and finds nothing with another's", async () => {
    const [a, b] = apps as [TAppOutputs, TAppOutputs];
    const own = JSON.parse((await dataApi(s.schoolId, a.key, `?user_id=${a.userId}&only=usuario`)).text) as TAppOutputs["data"];
    expect(own.dados.usuario!.length).toBeGreaterThan(0);
    expect(own.dados.usuario!.every((e) => e.registro.id === a.userId)).toBe(true);
    for (const foreign of [b.userId, s.teacher.id]) {
      const other = JSON.parse((await dataApi(s.schoolId, a.key, `?user_id=${foreign}`)).text) as TAppOutputs["data"];
      expect(Object.values(other.dados).flat()).toEqual([]);
    }
    const summary = async (userId: string) => {
      const request = new NextRequest(new URL(`/manager/v1/summary/${s.schoolId}?user_id=${userId}`, TEST_ISSUER), { headers: { "x-api-key": a.key } });
      const body = (await (await summaryGet(request, { params: Promise.resolve({ orgId: s.schoolId }) })).json()) as { total: { usuario: Record<string, number> } };
      return Object.values(body.total.usuario).reduce((x, y) => x + y, 0);
    };
    expect(await summary(a.userId)).toBeGreaterThan(0);
    expect(await summary(b.userId)).toBe(0);
  });

  it("user info accepts the application's own x-relationship-id and refuses another application's or the global one", async () => {
    const [a, b] = apps as [TAppOutputs, TAppOutputs];
    const { accessToken } = await signIn(a.app, s.teacher.id);
    expect((await userInfo(accessToken, a.userId)).status).toBe(200);
    expect((await userInfo(accessToken, b.userId)).status).toBe(403);
    expect((await userInfo(accessToken, s.teacher.id)).status).toBe(403);
  });

  it("login_hint: the application's own id picks the profile; another application's is ignored", async () => {
    const [a, b] = apps as [TAppOutputs, TAppOutputs];
    const { personId } = await db().profile.findUniqueOrThrow({ where: { id: s.teacher.id }, select: { personId: true } });
    // A second enabled profile, so that only a honoured hint skips the picker.
    await createProfile({ personId, institutionId: s.otherSchoolId, role: "professor" });
    const hinted = (hint: string) =>
      decideAuthorization({
        query: new URLSearchParams({ client_id: a.app.clientId, redirect_uri: a.app.redirectUri, response_type: "code", scope: "user.info", state: "s", login_hint: hint }),
        session: { personId, profileId: s.teacher.id },
        step: "authorize",
      });
    const own = await hinted(a.userId);
    expect(own.kind === "redirect" && new URL(own.location).searchParams.get("user_id")).toBe(a.userId);
    expect((await hinted(b.userId)).kind).toBe("choose_profile");
    expect((await hinted(s.teacher.id)).kind).toBe("choose_profile");
  });

  it("the tool's launch user_id is its own: not an application's id, stable across launches", async () => {
    const fields = JSON.parse(launchText) as [string, string][][];
    const teacherLaunch = new Map(fields[0]);
    const toolUserId = teacherLaunch.get("user_id")!;
    expect(apps.map((out) => out.userId)).not.toContain(toolUserId);
    const placement = teacherLaunch.get("resource_link_id")!;
    const again = new Map((await buildLaunch({ placementId: placement, profile: s.teacher })).fields);
    expect(again.get("user_id")).toBe(toolUserId);
  });
});
