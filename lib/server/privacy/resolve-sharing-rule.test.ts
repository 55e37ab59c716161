// One rule for both kinds of partner: an OAuth application and an LTI tool of the same edtech
// follow the same contract (EdtechLink up the tree) and inheritance (nearest rule row).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { setupTestDatabase } from "@/test/database";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TRoleOverrides } from "@/lib/server/data-api/privacy";
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

async function setRule(partner: TSharingPartner, institutionId: string, allowed: string[], anonymized: string[] = [], roleOverrides: TRoleOverrides = {}): Promise<void> {
  const rule = { allowedAttributes: allowed, anonymizedAttributes: anonymized, roleOverrides: roleOverrides as Prisma.InputJsonObject };
  if (partner.kind === "application") {
    await db().applicationAccess.create({ data: { institutionId, applicationId: partner.id, ...rule } });
  } else {
    await db().toolSharing.create({ data: { institutionId, toolId: partner.id, ...rule } });
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
    expect(await resolveSharingRule({ institutionId: w.schoolA, partner: partner(), role: "aluno" })).toMatchObject({
      enabled: true,
      configuration: { allowed: ["nome_usuario", "email_usuario"], anonymized: ["email_usuario"] },
      ruleInstitutionId: w.network,
    });
    expect(await resolveSharingRule({ institutionId: w.schoolB, partner: partner(), role: "aluno" })).toMatchObject({
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
      const rule = await resolveSharingRule({ institutionId, partner: p, role: "aluno" });
      expect(rule).toMatchObject(kind === "application" ? { enabled: false, reason: "not_enabled" } : { enabled: true, configuration: { allowed: [], anonymized: [] }, ruleInstitutionId: null });
    }
  });

  it("removing the edtech's link disables the partner everywhere below, whatever its rules say", async () => {
    const other = await createWorld();
    const p = kind === "application" ? other.application : other.tool;
    const link = await db().edtechLink.create({ data: { institutionId: other.network, edtechId: p.edtechId } });
    await setRule(p, other.schoolA, ["nome_usuario", "email_usuario"]);
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: p, role: "aluno" })).toMatchObject({ enabled: true });
    await db().edtechLink.delete({ where: { id: link.id } });
    for (const institutionId of [other.network, other.schoolA, other.schoolB]) {
      expect(await resolveSharingRule({ institutionId, partner: p, role: "aluno" })).toEqual({ enabled: false, reason: "no_contract" });
    }
    // A link at the school alone is enough again, for that school only.
    await db().edtechLink.create({ data: { institutionId: other.schoolA, edtechId: p.edtechId } });
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: p, role: "aluno" })).toMatchObject({ enabled: true, configuration: { allowed: ["nome_usuario", "email_usuario"] } });
    expect(await resolveSharingRule({ institutionId: other.schoolB, partner: p, role: "aluno" })).toEqual({ enabled: false, reason: "no_contract" });
  });
});

describe("the kinds differ only where no rule exists", () => {
  it("an application with no rule row is not enabled; a tool with none is launched with nothing personal", async () => {
    const other = await createWorld();
    await db().edtechLink.create({ data: { institutionId: other.network, edtechId: other.tool.edtechId } });
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: other.application, role: "aluno" })).toEqual({ enabled: false, reason: "not_enabled" });
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: other.tool, role: "aluno" })).toMatchObject({ enabled: true, configuration: { allowed: [], anonymized: [] }, ruleInstitutionId: null });
  });

  it("an application's rule never applies to the same edtech's tool, nor the other way round", async () => {
    const other = await createWorld();
    await db().edtechLink.create({ data: { institutionId: other.network, edtechId: other.tool.edtechId } });
    await setRule(other.application, other.schoolA, ["nome_usuario", "email_usuario"]);
    await setRule(other.tool, other.schoolB, ["nome_usuario"]);
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: other.tool, role: "aluno" })).toMatchObject({ configuration: { allowed: [] } });
    expect(await resolveSharingRule({ institutionId: other.schoolB, partner: other.application, role: "aluno" })).toEqual({ enabled: false, reason: "not_enabled" });
  });
});

describe.each(["application", "tool"] as const)("per-role rules for an %s (ADR 015)", (kind) => {
  it("a role's override replaces the base for that role only; the other roles follow the base", async () => {
    const other = await createWorld();
    const p = kind === "application" ? other.application : other.tool;
    await db().edtechLink.create({ data: { institutionId: other.network, edtechId: p.edtechId } });
    // "teachers: e-mail shared; students: not" — the base shares the name only.
    await setRule(p, other.network, ["nome_usuario"], [], {
      professor: { allowedAttributes: ["nome_usuario", "email_usuario"], anonymizedAttributes: [] },
      responsavel: { allowedAttributes: ["nome_usuario"], anonymizedAttributes: ["nome_usuario"] },
    });
    const at = (role: "aluno" | "professor" | "responsavel" | "gestor" | null) => resolveSharingRule({ institutionId: other.schoolA, partner: p, role });
    expect(await at("professor")).toMatchObject({ configuration: { allowed: ["nome_usuario", "email_usuario"], anonymized: [] }, ruleInstitutionId: other.network });
    expect(await at("aluno")).toMatchObject({ configuration: { allowed: ["nome_usuario"], anonymized: [] } });
    expect(await at("gestor")).toMatchObject({ configuration: { allowed: ["nome_usuario"], anonymized: [] } });
    expect(await at("responsavel")).toMatchObject({ configuration: { allowed: ["nome_usuario"], anonymized: ["nome_usuario"] } });
    // No role: the strictest of all roles (used only where no profile is concerned).
    const any = await at(null);
    expect(any).toMatchObject({ configuration: { allowed: ["nome_usuario"], anonymized: ["nome_usuario"] } });
    expect(any.enabled && any.byRole.professor.allowed).toEqual(["nome_usuario", "email_usuario"]);
  });

  it("the nearest row decides with its own overrides: an ancestor's override does not reach a school with its own row", async () => {
    const other = await createWorld();
    const p = kind === "application" ? other.application : other.tool;
    await db().edtechLink.create({ data: { institutionId: other.network, edtechId: p.edtechId } });
    await setRule(p, other.network, ["nome_usuario"], [], { professor: { allowedAttributes: ["nome_usuario", "email_usuario", "cpf"], anonymizedAttributes: [] } });
    await setRule(p, other.schoolB, ["nome_usuario", "telefone"], ["telefone"]);
    expect(await resolveSharingRule({ institutionId: other.schoolB, partner: p, role: "professor" })).toMatchObject({
      configuration: { allowed: ["nome_usuario", "telefone"], anonymized: ["telefone"] },
      ruleInstitutionId: other.schoolB,
    });
    expect(await resolveSharingRule({ institutionId: other.schoolA, partner: p, role: "professor" })).toMatchObject({
      configuration: { allowed: ["nome_usuario", "cpf", "email_usuario"] },
    });
  });
});
