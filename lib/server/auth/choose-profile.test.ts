import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { setupTestDatabase } from "@/test/database";
import { resetEnvCache } from "@/lib/env";
import { plainRequest } from "@/lib/server/http/plain-endpoint";
import { chooseProfile } from "./choose-profile";
import { chooseProfileEndpoint } from "./choose-profile-endpoint";
import { openSession, sealSession, sessionCookie } from "./session-cookie";

setupTestDatabase();
let f: TManagementFixture;

beforeAll(async () => {
  f = await createManagementFixture();
});

describe("chooseProfile", () => {
  it("chooses one of the person's profiles, keeping the session's other claims", async () => {
    expect(await chooseProfile({ token: { sub: f.school1.studentPersonId, method: "google" }, profileId: f.school1.studentId })).toEqual({ sub: f.school1.studentPersonId, method: "google", profileId: f.school1.studentId });
  });

  it("refuses another person's profile, and a value that is no UUID before the database sees it", async () => {
    const teacherPerson = (await db().profile.findUniqueOrThrow({ where: { id: f.school1.teacherId } })).personId;
    expect(await chooseProfile({ token: { sub: teacherPerson }, profileId: f.school1.studentId })).toBeNull();
    for (const profileId of ["-".repeat(36), "x", `${f.school1.studentId} `]) expect(await chooseProfile({ token: { sub: f.school1.studentPersonId }, profileId })).toBeNull();
  });
});

describe("POST /perfil/escolher (chooseProfileEndpoint, served beside Next)", () => {
  const BASE = "http://hub.test";
  beforeAll(() => {
    process.env.HUB_BASE_URL = BASE;
    resetEnvCache();
  });
  const choose = async (fields: Record<string, string>, session?: { sub: string; profileId?: string | null }) => {
    const headers: Record<string, string> = { origin: BASE, "content-type": "application/x-www-form-urlencoded" };
    if (session) headers.cookie = `${sessionCookie().name}=${await sealSession(session)}`;
    const body = new URLSearchParams(fields).toString();
    return chooseProfileEndpoint(plainRequest((name) => headers[name.toLowerCase()] ?? null, (max) => Promise.resolve(body.length > max ? null : body)), {});
  };

  it("the session takes one of the person's profiles, then on to the callback; the cookie says so", async () => {
    const answer = await choose({ profileId: f.school1.studentId, callbackUrl: "/ferramentas" }, { sub: f.school1.studentPersonId, profileId: null });
    expect([answer.status, answer.headers.Location]).toEqual([303, "/ferramentas"]);
    const cookie = /^[^=]+=([^;]+);/.exec(answer.headers["Set-Cookie"] ?? "")?.[1];
    expect(await openSession(cookie)).toMatchObject({ sub: f.school1.studentPersonId, profileId: f.school1.studentId });
  });

  it("another person's profile goes back to the picker with erro=perfil; no session, to sign in; neither sets a cookie", async () => {
    const teacherPerson = (await db().profile.findUniqueOrThrow({ where: { id: f.school1.teacherId } })).personId;
    const refused = await choose({ profileId: f.school1.studentId, callbackUrl: "/", returnTo: "/perfil?trocar=1" }, { sub: teacherPerson });
    expect([refused.status, refused.headers.Location, refused.headers["Set-Cookie"]]).toEqual([303, "/perfil?trocar=1&erro=perfil", undefined]);
    const anonymous = await choose({ profileId: f.school1.studentId, callbackUrl: "/ferramentas" });
    expect([anonymous.status, anonymous.headers.Location, anonymous.headers["Set-Cookie"]]).toEqual([303, "/login?callbackUrl=%2Fferramentas", undefined]);
  });
});
