import { describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/server/crypto/secret-box";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import { setupTestDatabase } from "@/test/database";
import { createTool } from "./create-tool";
import { getDeveloperOverview } from "./get-developer-overview";
import { getDeveloperTool } from "./get-developer-tool";
import { listAuditEntries } from "./list-audit-entries";
import { setToolStatus } from "./set-tool-status";
import { pngBytes, SVG_LOGO, developersBeforeAll } from "@/test/fixtures/developer";
import { updateTool } from "./update-tool";

/** What a developer types in the new-tool form. */
const fields = {
  title: "Frações Divertidas",
  shortDescription: "Atividades de frações para o 6º ano.",
  longDescription: "Sequências didáticas e relatórios por turma.",
  siteUrl: "https://fracoes.example",
  launchUrl: "https://fracoes.example/lti/launch",
  consumerKey: "fracoes-hub",
};

const t = setupTestDatabase();
const dev = developersBeforeAll("Dev");

async function counts() {
  const [tools, assets, audit] = await Promise.all([t.db.prisma.tool.count(), t.db.prisma.asset.count(), t.db.prisma.auditLog.count()]);
  return { tools, assets, audit };
}

describe("createTool", () => {
  it("stores the five gallery fields, the logo as an Asset and the secret encrypted; audits without the secret", async () => {
    const { tool, generatedSecret } = await createTool({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields, sharedSecret: "um-segredo-bem-longo-123", logo: pngBytes(64, 64) });
    expect(generatedSecret).toBeNull();
    expect(tool).toMatchObject({ ...fields, edtechId: dev.alice.edtechId, status: "active", logoUrl: expect.stringMatching(/^\/assets\/[0-9a-f-]{36}$/) });
    const row = await t.db.prisma.tool.findUniqueOrThrow({ where: { id: tool.id }, include: { logo: true } });
    expect(row.sharedSecretEnc).not.toContain("um-segredo");
    expect(decryptSecret(row.sharedSecretEnc, LTI_SECRET_PURPOSE)).toBe("um-segredo-bem-longo-123");
    expect(row.logo).toMatchObject({ contentType: "image/png", dataBase64: pngBytes(64, 64).toString("base64") });
    const audit = await t.db.prisma.auditLog.findFirstOrThrow({ where: { targetId: tool.id, action: "tool.create" } });
    expect(audit).toMatchObject({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, targetType: "tool" });
    expect(JSON.stringify(audit)).not.toContain("um-segredo");
  });

  it("generates a strong secret when none is typed and returns it once", async () => {
    const { tool, generatedSecret } = await createTool({
      actorPersonId: dev.alice.personId,
      edtechId: dev.alice.edtechId,
      fields: { ...fields, consumerKey: "gerada", title: "Gerada" },
      logo: Buffer.from(SVG_LOGO),
    });
    expect(generatedSecret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const row = await t.db.prisma.tool.findUniqueOrThrow({ where: { id: tool.id } });
    expect(decryptSecret(row.sharedSecretEnc, LTI_SECRET_PURPOSE)).toBe(generatedSecret);
    expect(JSON.stringify(await t.db.prisma.auditLog.findMany())).not.toContain(generatedSecret!);
    expect(await getDeveloperTool({ personId: dev.alice.personId, toolId: tool.id })).not.toHaveProperty("sharedSecretEnc");
  });

  it("with bad input names every bad field and saves nothing", async () => {
    const before = await counts();
    const attempt = createTool({
      actorPersonId: dev.alice.personId,
      edtechId: dev.alice.edtechId,
      fields: { title: "", shortDescription: "x", longDescription: "", siteUrl: "http://fracoes.example", launchUrl: "ftp://x", consumerKey: "com espaço" },
      sharedSecret: "curto",
      logo: null,
    });
    await expect(attempt).rejects.toMatchObject({
      code: "bad_request",
      fields: {
        title: expect.any(String),
        longDescription: expect.any(String),
        siteUrl: expect.stringMatching(/https/),
        launchUrl: expect.stringMatching(/https/),
        consumerKey: expect.any(String),
        sharedSecret: expect.stringMatching(/16/),
        logo: expect.stringMatching(/logo/),
      },
    });
    expect(await counts()).toEqual(before);
  });

  it.each([
    ["an oversize logo", Buffer.concat([pngBytes(), Buffer.alloc(300 * 1024)]), /limite/],
    ["a GIF", Buffer.from("GIF89a\x10\x00\x10\x00", "latin1"), /PNG, JPEG ou SVG/],
    ["an SVG with script", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>'), /script/],
  ])("refuses %s next to the logo field and saves nothing", async (_, logo, message) => {
    const before = await counts();
    await expect(createTool({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields, logo })).rejects.toMatchObject({
      code: "bad_request",
      fields: { logo: expect.stringMatching(message) },
    });
    expect(await counts()).toEqual(before);
  });

  it("refuses a consumer key already registered for the same endpoint, even by another edtech", async () => {
    const before = await counts();
    await expect(
      createTool({ actorPersonId: dev.bob.personId, edtechId: dev.bob.edtechId, fields: { ...fields, launchUrl: "HTTPS://Fracoes.example:443/lti/launch" }, logo: pngBytes() }),
    ).rejects.toMatchObject({ code: "conflict", fields: { consumerKey: expect.any(String) } });
    expect(await counts()).toEqual(before);
  });

  it("refuses to create a tool for an edtech the person is not in", async () => {
    const before = await counts();
    await expect(createTool({ actorPersonId: dev.bob.personId, edtechId: dev.alice.edtechId, fields, logo: pngBytes() })).rejects.toMatchObject({ code: "forbidden" });
    await expect(createTool({ actorPersonId: dev.outsider, edtechId: dev.alice.edtechId, fields, logo: pngBytes() })).rejects.toMatchObject({ code: "forbidden" });
    expect(await counts()).toEqual(before);
  });
});

describe("updateTool and setToolStatus", () => {
  it("keeps secret and logo unless new ones are sent; replacing them drops the old logo and audits field names only", async () => {
    const { tool } = await createTool({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields: { ...fields, consumerKey: "editavel" }, sharedSecret: "segredo-original-1234", logo: pngBytes() });
    const kept = await updateTool({ actorPersonId: dev.alice.personId, toolId: tool.id, fields: { ...fields, consumerKey: "editavel", title: "Novo título" }, logo: null });
    expect(kept.tool).toMatchObject({ title: "Novo título", logoUrl: tool.logoUrl });
    let row = await t.db.prisma.tool.findUniqueOrThrow({ where: { id: tool.id } });
    expect(decryptSecret(row.sharedSecretEnc, LTI_SECRET_PURPOSE)).toBe("segredo-original-1234");

    const replaced = await updateTool({
      actorPersonId: dev.alice.personId,
      toolId: tool.id,
      fields: { ...fields, consumerKey: "editavel" },
      sharedSecret: "segredo-novo-5678-abcd",
      logo: Buffer.from(SVG_LOGO),
    });
    expect(replaced.generatedSecret).toBeNull();
    expect(replaced.tool.logoUrl).not.toBe(tool.logoUrl);
    row = await t.db.prisma.tool.findUniqueOrThrow({ where: { id: tool.id } });
    expect(decryptSecret(row.sharedSecretEnc, LTI_SECRET_PURPOSE)).toBe("segredo-novo-5678-abcd");
    expect(await t.db.prisma.asset.findUnique({ where: { id: tool.logoUrl!.slice("/assets/".length) } })).toBeNull();

    const generated = await updateTool({ actorPersonId: dev.alice.personId, toolId: tool.id, fields: { ...fields, consumerKey: "editavel" }, generateNewSecret: true, logo: null });
    expect(generated.generatedSecret).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const updates = await t.db.prisma.auditLog.findMany({ where: { targetId: tool.id, action: "tool.update" }, orderBy: { createdAt: "asc" } });
    expect(updates.map((u) => (u.details as { changed: string[] }).changed)).toEqual([
      ["title"],
      ["title", "logo", "sharedSecret"],
      ["sharedSecret"],
    ]);
    const all = JSON.stringify(updates);
    for (const secret of ["segredo-original-1234", "segredo-novo-5678-abcd", generated.generatedSecret!]) expect(all).not.toContain(secret);
  });

  it("bad input on edit saves nothing", async () => {
    const { tool } = await createTool({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields: { ...fields, consumerKey: "intacta" }, logo: pngBytes() });
    await expect(
      updateTool({ actorPersonId: dev.alice.personId, toolId: tool.id, fields: { ...fields, consumerKey: "intacta", title: "Mudou", launchUrl: "http://fracoes.example/lti" }, logo: null }),
    ).rejects.toMatchObject({ fields: { launchUrl: expect.stringMatching(/https/) } });
    expect((await getDeveloperTool({ personId: dev.alice.personId, toolId: tool.id }))?.title).toBe(fields.title);
  });

  it("withdraws and reactivates, audited once per change", async () => {
    const { tool } = await createTool({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields: { ...fields, consumerKey: "retirada" }, logo: pngBytes() });
    expect((await setToolStatus({ actorPersonId: dev.alice.personId, toolId: tool.id, status: "withdrawn" })).status).toBe("withdrawn");
    await setToolStatus({ actorPersonId: dev.alice.personId, toolId: tool.id, status: "withdrawn" });
    expect((await setToolStatus({ actorPersonId: dev.alice.personId, toolId: tool.id, status: "active" })).status).toBe("active");
    const actions = (await t.db.prisma.auditLog.findMany({ where: { targetId: tool.id }, orderBy: { createdAt: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(["tool.create", "tool.withdraw", "tool.reactivate"]);
  });
});

describe("another edtech's member", () => {
  it("cannot see, edit, withdraw or list Alice's tools, and learns nothing from the error", async () => {
    const { tool } = await createTool({ actorPersonId: dev.alice.personId, edtechId: dev.alice.edtechId, fields: { ...fields, consumerKey: "privada" }, logo: pngBytes() });
    for (const personId of [dev.bob.personId, dev.outsider]) {
      expect(await getDeveloperTool({ personId, toolId: tool.id })).toBeNull();
      await expect(updateTool({ actorPersonId: personId, toolId: tool.id, fields: { ...fields, consumerKey: "privada", title: "Roubada" }, logo: null })).rejects.toMatchObject({
        code: "not_found",
      });
      await expect(setToolStatus({ actorPersonId: personId, toolId: tool.id, status: "withdrawn" })).rejects.toMatchObject({ code: "not_found" });
      await expect(updateTool({ actorPersonId: personId, toolId: "00000000-0000-4000-8000-000000000000", fields, logo: null })).rejects.toMatchObject({ code: "not_found" });
    }
    const overview = await getDeveloperOverview({ personId: dev.bob.personId });
    expect(overview.flatMap((e) => e.tools).map((x) => x.id)).not.toContain(tool.id);
    expect(await getDeveloperOverview({ personId: dev.outsider })).toEqual([]);
    expect(await getDeveloperTool({ personId: dev.alice.personId, toolId: tool.id })).toMatchObject({ title: fields.title, status: "active" });
  });

  it("does not see Alice's audit entries", async () => {
    const mine = await listAuditEntries({ personId: dev.alice.personId });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.edtechName === "Edtech Alice Dev")).toBe(true);
    expect((await listAuditEntries({ personId: dev.bob.personId })).some((e) => e.edtechName === "Edtech Alice Dev")).toBe(false);
    expect(await listAuditEntries({ personId: dev.outsider })).toEqual([]);
  });
});
