import { describe, expect, it } from "vitest";
import { hashSecret } from "@/lib/oauth/secret";
import { verifyApiKey } from "@/lib/server/api-keys/verify-api-key";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { setupTestDatabase } from "@/test/database";
import { createApplication } from "./create-application";
import { createApplicationKey } from "./create-application-key";
import { deleteApplication } from "./delete-application";
import { getDeveloperApplication } from "./get-developer-application";
import { revokeApplicationKey } from "./revoke-application-key";
import { rotateApplicationSecret } from "./rotate-application-secret";
import { developersBeforeAll } from "@/test/fixtures/developer";
import { updateApplication } from "./update-application";

const t = setupTestDatabase();
const dev = developersBeforeAll("App");

const fields = {
  name: "Portal do Professor",
  description: "Login dos professores",
  homepageUrl: "https://portal.example",
  redirectUris: "https://portal.example/callback\nhttp://localhost:3000/callback",
  defaultResponseType: "code" as const,
};

async function counts() {
  const [applications, keys, audit] = await Promise.all([t.db.prisma.oAuthApplication.count(), t.db.prisma.apiKey.count(), t.db.prisma.auditLog.count()]);
  return { applications, keys, audit };
}

describe("createApplication", () => {
  it("generates client_id and a secret shown once, stored only as its SHA-256", async () => {
    const { application, clientSecret } = await createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields });
    expect(application).toMatchObject({
      name: fields.name,
      redirectUris: ["https://portal.example/callback", "http://localhost:3000/callback"],
      defaultResponseType: "code",
      clientId: expect.stringMatching(/^app-[0-9a-f]{24}$/),
    });
    expect(clientSecret.length).toBeGreaterThanOrEqual(43);
    const row = await t.db.prisma.oAuthApplication.findUniqueOrThrow({ where: { id: application.id } });
    expect(row.clientSecretHash).toBe(hashSecret(clientSecret));
    expect(JSON.stringify(row)).not.toContain(clientSecret);
    const audit = await t.db.prisma.auditLog.findFirstOrThrow({ where: { targetId: application.id } });
    expect(audit).toMatchObject({ action: "application.create", actorPersonId: dev.alice.personId });
    expect(JSON.stringify(audit)).not.toContain(clientSecret);
    expect(JSON.stringify(audit)).not.toContain(row.clientSecretHash);
  });

  it.each([
    ["missing name", { ...fields, name: "" }, "name"],
    ["no redirect URI", { ...fields, redirectUris: "" }, "redirectUris"],
    ["a malformed redirect URI", { ...fields, redirectUris: "notaurl" }, "redirectUris"],
    ["an http redirect URI off loopback", { ...fields, redirectUris: "http://portal.example/cb" }, "redirectUris"],
    ["a redirect URI with a fragment", { ...fields, redirectUris: "https://portal.example/cb#x" }, "redirectUris"],
    ["an unknown response type", { ...fields, defaultResponseType: "token" as "code" }, "defaultResponseType"],
    ["an http home page", { ...fields, homepageUrl: "http://portal.example" }, "homepageUrl"],
  ])("refuses %s, naming the field, and saves nothing", async (_, bad, field) => {
    const before = await counts();
    await expect(createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields: bad })).rejects.toMatchObject({
      code: "bad_request",
      fields: { [field]: expect.any(String) },
    });
    expect(await counts()).toEqual(before);
  });

  it("refuses an edtech the person is not in", async () => {
    await expect(createApplication({ actorPersonId: dev.bob.personId, edtechId: dev.alice.edtechId, fields })).rejects.toMatchObject({ code: "forbidden" });
    await expect(createApplication({ actorPersonId: dev.outsider, edtechId: dev.alice.edtechId, fields })).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("rotate, update, delete", () => {
  it("rotating replaces the hash at once; the old secret no longer matches", async () => {
    const { application, clientSecret } = await createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields });
    const rotated = await rotateApplicationSecret({ actorPersonId: dev.alice.personId, applicationId: application.id });
    expect(rotated.clientSecret).not.toBe(clientSecret);
    const row = await t.db.prisma.oAuthApplication.findUniqueOrThrow({ where: { id: application.id } });
    expect(row.clientSecretHash).toBe(hashSecret(rotated.clientSecret));
    expect(row.clientSecretHash).not.toBe(hashSecret(clientSecret));
    const audit = JSON.stringify(await t.db.prisma.auditLog.findMany({ where: { targetId: application.id } }));
    expect(audit).toContain("application.rotate_secret");
    expect(audit).not.toContain(rotated.clientSecret);
  });

  it("updates redirect URIs exactly as typed and audits the change", async () => {
    const { application } = await createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields });
    const updated = await updateApplication({
      actorPersonId: dev.alice.personId,
      applicationId: application.id,
      fields: { ...fields, redirectUris: "https://portal.example/novo?x=1", defaultResponseType: "id_token" },
    });
    expect(updated).toMatchObject({ redirectUris: ["https://portal.example/novo?x=1"], defaultResponseType: "id_token", clientId: application.clientId });
    const audit = await t.db.prisma.auditLog.findFirstOrThrow({ where: { targetId: application.id, action: "application.update" } });
    expect(audit.details).toMatchObject({ changed: ["defaultResponseType", "redirectUris"] });
  });

  it("deleting needs the name typed again, then removes the application and its keys", async () => {
    const { application } = await createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields: { ...fields, name: "Apagável" } });
    const { key } = await createApplicationKey({ actorPersonId: dev.alice.personId, applicationId: application.id });
    await expect(deleteApplication({ actorPersonId: dev.alice.personId, applicationId: application.id, confirmName: "apagavel" })).rejects.toMatchObject({
      fields: { confirmName: expect.stringContaining("Apagável") },
    });
    await deleteApplication({ actorPersonId: dev.alice.personId, applicationId: application.id, confirmName: " Apagável " });
    expect(await t.db.prisma.oAuthApplication.findUnique({ where: { id: application.id } })).toBeNull();
    await expect(verifyApiKey({ key })).rejects.toMatchObject({ code: "unauthorized" });
    expect(await t.db.prisma.auditLog.findFirst({ where: { targetId: application.id, action: "application.delete" } })).toMatchObject({
      details: { name: "Apagável", apiKeysDeleted: 1 },
    });
  });
});

describe("API keys", () => {
  it("creates (shown once), lists by prefix with times, revokes with effect on the next verification", async () => {
    const { application } = await createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields });
    const { apiKey, key } = await createApplicationKey({ actorPersonId: dev.alice.personId, applicationId: application.id, name: "Produção" });
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    await verifyApiKey({ key });
    const detail = await getDeveloperApplication({ personId: dev.alice.personId, applicationId: application.id });
    expect(detail?.apiKeys).toEqual([
      expect.objectContaining({ id: apiKey.id, name: "Produção", prefix: apiKey.prefix, createdAt: expect.any(Date), lastUsedAt: expect.any(Date), revokedAt: null }),
    ]);
    expect(JSON.stringify(detail)).not.toContain(key.slice(apiKey.prefix.length + 1));
    expect(JSON.stringify(detail)).not.toContain("keyHash");

    await revokeApplicationKey({ actorPersonId: dev.alice.personId, applicationId: application.id, apiKeyId: apiKey.id });
    await expect(verifyApiKey({ key })).rejects.toMatchObject({ code: "unauthorized" });
    await revokeApplicationKey({ actorPersonId: dev.alice.personId, applicationId: application.id, apiKeyId: apiKey.id });
    const actions = (await t.db.prisma.auditLog.findMany({ where: { targetId: apiKey.id }, orderBy: { createdAt: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(["api_key.create", "api_key.revoke"]);
    expect(JSON.stringify(await t.db.prisma.auditLog.findMany())).not.toContain(key);
  });

  it("lists the edtech's linked institutions with their org_id and whether this application has access", async () => {
    const network = await createInstitution({ name: "Rede Norte", kind: "network" });
    const school = await createInstitution({ name: "Escola Norte", kind: "school", parentId: network.id });
    const { application } = await createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields });
    await t.db.prisma.edtechLink.create({ data: { institutionId: network.id, edtechId: dev.alice.edtechId } });
    await t.db.prisma.applicationAccess.create({ data: { institutionId: school.id, applicationId: application.id, allowedAttributes: ["nome_usuario"], anonymizedAttributes: [] } });
    const detail = await getDeveloperApplication({ personId: dev.alice.personId, applicationId: application.id });
    expect(detail?.institutions).toEqual([
      { id: network.id, name: "Rede Norte", kind: "network", linked: true, access: null },
      { id: school.id, name: "Escola Norte", kind: "school", linked: false, access: { allowedAttributes: ["nome_usuario"], anonymizedAttributes: [] } },
    ]);
  });

  it("refuses a malformed key name", async () => {
    const { application } = await createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields });
    await expect(createApplicationKey({ actorPersonId: dev.alice.personId, applicationId: application.id, name: "x".repeat(101) })).rejects.toMatchObject({
      fields: { name: expect.any(String) },
    });
  });
});

describe("another edtech's member", () => {
  it("cannot see, change, rotate, delete, or manage keys of Alice's application", async () => {
    const { application, clientSecret } = await createApplication({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields });
    const { apiKey, key } = await createApplicationKey({ actorPersonId: dev.alice.personId, applicationId: application.id });
    const before = await counts();
    for (const personId of [dev.bob.personId, dev.outsider]) {
      const notFound = { code: "not_found" };
      expect(await getDeveloperApplication({ personId, applicationId: application.id })).toBeNull();
      await expect(updateApplication({ actorPersonId: personId, applicationId: application.id, fields: { ...fields, redirectUris: "https://evil.example/cb" } })).rejects.toMatchObject(notFound);
      await expect(rotateApplicationSecret({ actorPersonId: personId, applicationId: application.id })).rejects.toMatchObject(notFound);
      await expect(deleteApplication({ actorPersonId: personId, applicationId: application.id, confirmName: fields.name })).rejects.toMatchObject(notFound);
      await expect(createApplicationKey({ actorPersonId: personId, applicationId: application.id })).rejects.toMatchObject(notFound);
      await expect(revokeApplicationKey({ actorPersonId: personId, applicationId: application.id, apiKeyId: apiKey.id })).rejects.toMatchObject(notFound);
    }
    // Bob's own application cannot be used to reach Alice's key either.
    const bobs = await createApplication({ actorPersonId: dev.bob.personId, edtechId: dev.bob.edtechId, fields });
    await expect(revokeApplicationKey({ actorPersonId: dev.bob.personId, applicationId: bobs.application.id, apiKeyId: apiKey.id })).rejects.toMatchObject({ code: "not_found" });

    const row = await t.db.prisma.oAuthApplication.findUniqueOrThrow({ where: { id: application.id } });
    expect(row.clientSecretHash).toBe(hashSecret(clientSecret));
    expect(row.redirectUris).toEqual(["https://portal.example/callback", "http://localhost:3000/callback"]);
    await expect(verifyApiKey({ key })).resolves.toMatchObject({ apiKeyId: apiKey.id });
    expect((await counts()).keys).toBe(before.keys);
  });
});
