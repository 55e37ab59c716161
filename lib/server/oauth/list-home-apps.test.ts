// Which applications a profile may use: the enablement rule (contract + access row, inherited
// down the institution tree) behind the picker and the home page cards.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { setupTestDatabase } from "@/test/database";
import { listHomeApps } from "./list-home-apps";
import { resolveApplicationAccess } from "./resolve-application-access";
import { createOAuthWorld, createTestApp, grantApplication, TEST_ISSUER, type TOAuthWorld } from "@/test/fixtures/oauth";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";

setupTestDatabase();
let w: TOAuthWorld;

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "home-apps-test-secret-0123456789abcdef";
  resetEnvCache();
  w = await createOAuthWorld();
});

describe("resolveApplicationAccess", () => {
  it("inherits the network's access row; a school's own row is the nearest and wins", async () => {
    expect(await resolveApplicationAccess({ institutionId: w.schoolA, application: w.app, role: "aluno" })).toEqual({
      enabled: true,
      configuration: { allowed: ["nome_usuario", "idade", "email_usuario"], anonymized: ["email_usuario"] },
    });
    expect(await resolveApplicationAccess({ institutionId: w.schoolB, application: w.app, role: "aluno" })).toEqual({
      enabled: true,
      configuration: { allowed: ["nome_usuario"], anonymized: [] },
    });
  });

  it("needs both the edtech's contract and the application's access row", async () => {
    expect(await resolveApplicationAccess({ institutionId: w.schoolC, application: w.app, role: "aluno" })).toEqual({ enabled: false, reason: "no_contract" });
    const unlisted = await createTestApp("Sem acesso");
    await db().edtechLink.create({ data: { institutionId: w.network, edtechId: unlisted.edtechId } });
    expect(await resolveApplicationAccess({ institutionId: w.schoolA, application: unlisted, role: "aluno" })).toEqual({ enabled: false, reason: "not_enabled" });
    const noContract = await createTestApp("Sem contrato");
    await grantApplication(w.schoolA, noContract.id, ["nome_usuario"]);
    expect(await resolveApplicationAccess({ institutionId: w.schoolA, application: noContract, role: "aluno" })).toEqual({ enabled: false, reason: "no_contract" });
  });
});

describe("listHomeApps", () => {
  it("lists the enabled applications with a link that starts a third-party initiated login for the profile", async () => {
    const apps = await listHomeApps({ profileId: w.teacherA });
    expect(apps.map((a) => a.name)).toEqual(["Outro App", "Parceiro App"]);
    const href = new URL(apps[1]!.href);
    expect(href.searchParams.get("iss")).toBe(TEST_ISSUER);
    expect(href.searchParams.get("login_hint")).toBe(await partnerIdOf(applicationPartner(w.app.id), w.teacherA));
    expect(await listHomeApps({ profileId: w.studentC })).toEqual([]);
  });

  it("never turns a non-http home page into a link", async () => {
    const evil = await createTestApp("Malicioso");
    await db().oAuthApplication.update({ where: { id: evil.id }, data: { homepageUrl: "javascript:alert(1)" } });
    await db().edtechLink.create({ data: { institutionId: w.network, edtechId: evil.edtechId } });
    await grantApplication(w.network, evil.id, ["nome_usuario"]);
    expect((await listHomeApps({ profileId: w.teacherA })).map((a) => a.name)).not.toContain("Malicioso App");
  });
});
