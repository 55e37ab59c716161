// The authorization screen follows the same sharing rule as the launch and the Data API: once the
// network removes the edtech's link, none of that edtech's applications can sign anyone in.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { resolveManagerScope } from "@/lib/server/management/resolve-manager-scope";
import { setEdtechLink } from "@/lib/server/management/set-edtech-link";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { setupTestDatabase } from "@/test/database";
import { decideAuthorization } from "./decide-authorization";
import { listProfileChoices } from "./list-profile-choices";
import { createOAuthWorld, createTestApp, grantApplication, TEST_ISSUER, type TOAuthWorld, type TTestApp } from "@/test/fixtures/oauth";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";

setupTestDatabase();
let w: TOAuthWorld;
let app: TTestApp;

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "oauth-link-removal-secret-0123456789abcdef";
  resetEnvCache();
  w = await createOAuthWorld();
  app = await createTestApp("Desvinculada");
  await db().edtechLink.create({ data: { institutionId: w.network, edtechId: app.edtechId } });
  await grantApplication(w.network, app.id, ["nome_usuario"]);
});

const params = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: "code", scope: "user.info", state: "s", ...extra });

describe("removing the edtech's link at the network", () => {
  it("turns every profile below it unavailable and refuses the sign-in, silent or not", async () => {
    const before = await decideAuthorization({ query: params(), session: { personId: w.soloPersonId, profileId: w.soloA }, step: "authorize" });
    expect(before.kind === "redirect" && new URL(before.location).searchParams.get("user_id")).toBe(await partnerIdOf(applicationPartner(app.id), w.soloA));

    const manager = await createPerson({ name: "Gestora da Rede" });
    const profile = await createProfile({ personId: manager.id, institutionId: w.network, role: "gestor" });
    await setEdtechLink({ scope: await resolveManagerScope({ personId: manager.id, profileId: profile.id }), institutionId: w.network, edtechId: app.edtechId, linked: false });

    const choices = await listProfileChoices({ personId: w.personId, application: app });
    expect(choices.map((c) => c.enabled)).toEqual([false, false, false]);
    expect((await listProfileChoices({ personId: w.soloPersonId, application: app })).map((c) => c.enabled)).toEqual([false]);

    const refused = await decideAuthorization({ query: params(), session: { personId: w.soloPersonId, profileId: w.soloA }, step: "continue" });
    expect(refused.kind).toBe("choose_profile");
    const hinted = await decideAuthorization({ query: params({ login_hint: w.soloA }), session: { personId: w.soloPersonId, profileId: w.soloA }, step: "authorize" });
    expect(hinted.kind).not.toBe("redirect");
    const silent = await decideAuthorization({ query: params({ prompt: "none" }), session: { personId: w.soloPersonId, profileId: w.soloA }, step: "authorize" });
    expect(silent.kind).toBe("redirect");
    if (silent.kind === "redirect") {
      const location = new URL(silent.location);
      expect(location.searchParams.get("error")).toBe("interaction_required");
      expect(location.searchParams.get("code")).toBeNull();
    }
    // The same edtech's other applications are refused too; another edtech's are not.
    const sibling = await createTestApp("Irmã", { edtechId: app.edtechId });
    await grantApplication(w.network, sibling.id, ["nome_usuario"]);
    expect((await listProfileChoices({ personId: w.soloPersonId, application: sibling })).map((c) => c.enabled)).toEqual([false]);
    expect((await listProfileChoices({ personId: w.soloPersonId, application: w.app })).map((c) => c.enabled)).toEqual([true]);
  });
});
