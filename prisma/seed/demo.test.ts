import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "@/test/database";
import { verifyApiKey } from "@/lib/server/api-keys/verify-api-key";
import { DEMO, seedDemo } from "./demo";

const t = setupTestDatabase();

async function counts() {
  const p = t.db.prisma;
  return {
    institutions: await p.institution.count(),
    people: await p.person.count(),
    profiles: await p.profile.count(),
    events: await p.changeEvent.count(),
    tools: await p.tool.count(),
    placements: await p.placement.count(),
    applications: await p.oAuthApplication.count(),
    apiKeys: await p.apiKey.count(),
  };
}

describe("demo seed", () => {
  it("creates the documented identities, with school data written through the services", { timeout: 120_000 }, async () => {
    expect(await seedDemo({ baseUrl: "http://localhost:3000" })).toEqual({ created: true });
    const p = t.db.prisma;
    const ana = await p.person.findUniqueOrThrow({ where: { email: DEMO.teacherGuardian }, include: { profiles: true } });
    expect(ana.profiles.map((x) => x.role).sort()).toEqual(["professor", "responsavel"]);
    expect(ana.passwordHash).toMatch(/^scrypt\$/);
    expect(await p.profile.count({ where: { person: { email: DEMO.student } } })).toBe(1);
    expect(await p.profile.findFirst({ where: { person: { email: DEMO.manager } }, include: { institution: true } })).toMatchObject({ role: "gestor", institution: { kind: "network" } });
    const app = await p.oAuthApplication.findUniqueOrThrow({ where: { clientId: DEMO.clientId } });
    expect(app.redirectUris).toEqual(["http://localhost:3000/demo-app/callback"]);
    expect(app.clientSecretHash).not.toContain(DEMO.clientSecret);
    // The README's demo key works as documented, although it is not of the generated shape.
    expect(await verifyApiKey({ key: DEMO.apiKey })).toMatchObject({ applicationId: app.id });
    const tool = await p.tool.findFirstOrThrow({ where: { consumerKey: DEMO.toolConsumerKey } });
    expect(tool.sharedSecretEnc).not.toContain(DEMO.toolSecret);
    // Every profile has its usuario insert event: the seed went through the services.
    expect(await p.changeEvent.count({ where: { entity: "usuario", kind: "insert" } })).toBe(await p.profile.count());
    expect(await p.changeEvent.count({ where: { entity: "turmaAluno" } })).toBe(await p.classStudent.count());
  });

  it("is idempotent: a second run creates nothing", async () => {
    const before = await counts();
    expect(await seedDemo({ baseUrl: "http://localhost:3000" })).toEqual({ created: false });
    expect(await counts()).toEqual(before);
  });
});
