// One rule for both kinds of partner: an OAuth application and an LTI tool of the same edtech
// follow the same contract (EdtechLink up the tree) and inheritance (nearest rule row).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { setupTestDatabase } from "@/test/database";
import { resolveSharingRule, type TSharingPartner } from "./resolve-sharing-rule";

setupTestDatabase();

interface World {
  network: string;
  schoolA: string;
  schoolB: string;
  application: TSharingPartner;
  tool: TSharingPartner;
}

async function createWorld(): Promise<World> {
  const tag = randomBytes(4).toString("hex");
  const network = await createInstitution({ name: `Rede ${tag}`, kind: "network" });
  const schoolA = await createInstitution({ name: `Escola A ${tag}`, kind: "school", parentId: network.id });
  const schoolB = await createInstitution({ name: `Escola B ${tag}`, kind: "school", parentId: network.id });
  const edtech = await db().edtech.create({ data: { name: `Edtech ${tag}`, slug: `edtech-${tag}` } });
  const app = await db().oAuthApplication.create({
    data: { edtechId: edtech.id, name: `App ${tag}`, clientId: `app-${tag}`, clientSecretHash: "x", redirectUris: ["https://app.example/cb"], homepageUrl: "https://app.example" },
  });
  const tool = await db().tool.create({
    data: {
      edtechId: edtech.id, title: `Ferramenta ${tag}`, shortDescription: "", longDescription: "", siteUrl: "https://tool.example",
      launchUrl: "https://tool.example/launch", consumerKey: `key-${tag}`, sharedSecretEnc: "x",
    },
  });
  return {
    network: network.id,
    schoolA: schoolA.id,
    schoolB: schoolB.id,
    application: { kind: "application", id: app.id, edtechId: edtech.id },
    tool: { kind: "tool", id: tool.id, edtechId: edtech.id },
  };
}

async function setRule(partner: TSharingPartner, institutionId: string, allowed: string[], anonymized: string[] = []): Promise<void> {
  if (partner.kind === "application") {
    await db().applicationAccess.create({ data: { institutionId, applicationId: partner.id, allowedAttributes: allowed, anonymizedAttributes: anonymized } });
  } else {
    await db().toolSharing.create({ data: { institutionId, toolId: partner.id, allowedAttributes: allowed, anonymizedAttributes: anonymized } });
  }
}

let w: World;
beforeAll(async () => {
  w = await createWorld();
  await db().edtechLink.create({ data: { institutionId: w.network, edtechId: w.tool.edtechId } });
  for (const partner of [w.application, w.tool]) {
    await setRule(partner, w.network, ["nome_usuario", "email_usuario"], ["email_usuario"]);
    await setRule(partner, w.schoolB, ["nome_usuario"]);
  }
});

describe.each(["application", "tool"] as const)("resolveSharingRule for an %s", (kind) => {
  const partner = () => (kind === "application" ? w.application : w.tool);

  it("a school without its own rule inherits the network's; a school's own rule is the nearest and wins", async () => {
    expect(await resolveSharingRule({ institutionId: w.schoolA, partner: partner() })).toEqual({
      enabled: true,
      configuration: { allowed: ["nome_usuario", "email_usuario"], anonymized: ["email_usuario"] },
      ruleInstitutionId: w.network,
    });
    expect(await resolveSharingRule({ institutionId: w.schoolB, partner: partner() })).toEqual({
      enabled: true,
      configuration: { allowed: ["nome_usuario"], anonymized: [] },
      ruleInstitutionId: w.schoolB,
    });
  });

  it("a school's rule does not reach its parent or its siblings", async () => {
    const other = await createWorld();
    const p = kind === "application" ? other.application : other.tool;
    await db().edtechLink.create({ data: { institutionId: other.network, edtechId: p.edtechId } });
    await setRule(p, other.schoolB, ["nome_usuario"]);
    for (const institutionId of [other.network, other.schoolA]) {
      const rule = await resolveSharingRule({ institutionId, partner: p });
      expect(rule).toEqual(kind === "application" ? { enabled: false, reason: "not_enabled" } : { enabled: true, configuration: { allowed: [], anonymized: [] }, ruleInstitutionId: null });
    }
  });

  it("removing the edtech's link disables the partner everywhere below, whatever its rules say", async () => {
    const other = await createWorld();
    const p = kind === "application" ? other.application : other.tool;
    const link = await db().edtechLink.create({ data: { institutionId: other.network, edtechId: p.edtechId } });
    await setRule(p, other.schoolA, ["nome_usuario", "email_usuario"]);
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: p })).toMatchObject({ enabled: true });
    await db().edtechLink.delete({ where: { id: link.id } });
    for (const institutionId of [other.network, other.schoolA, other.schoolB]) {
      expect(await resolveSharingRule({ institutionId, partner: p })).toEqual({ enabled: false, reason: "no_contract" });
    }
    // A link at the school alone is enough again, for that school only.
    await db().edtechLink.create({ data: { institutionId: other.schoolA, edtechId: p.edtechId } });
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: p })).toMatchObject({ enabled: true, configuration: { allowed: ["nome_usuario", "email_usuario"] } });
    expect(await resolveSharingRule({ institutionId: other.schoolB, partner: p })).toEqual({ enabled: false, reason: "no_contract" });
  });
});

describe("the kinds differ only where no rule exists", () => {
  it("an application with no rule row is not enabled; a tool with none is launched with nothing personal", async () => {
    const other = await createWorld();
    await db().edtechLink.create({ data: { institutionId: other.network, edtechId: other.tool.edtechId } });
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: other.application })).toEqual({ enabled: false, reason: "not_enabled" });
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: other.tool })).toEqual({ enabled: true, configuration: { allowed: [], anonymized: [] }, ruleInstitutionId: null });
  });

  it("an application's rule never applies to the same edtech's tool, nor the other way round", async () => {
    const other = await createWorld();
    await db().edtechLink.create({ data: { institutionId: other.network, edtechId: other.tool.edtechId } });
    await setRule(other.application, other.schoolA, ["nome_usuario", "email_usuario"]);
    await setRule(other.tool, other.schoolB, ["nome_usuario"]);
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: other.tool })).toMatchObject({ configuration: { allowed: [] } });
    expect(await resolveSharingRule({ institutionId: other.schoolB, partner: other.application })).toEqual({ enabled: false, reason: "not_enabled" });
  });
});
