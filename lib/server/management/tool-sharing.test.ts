// The manager's rules for a tool's launches (/gestao/{id}/ferramentas): each choice changes the
// next launch exactly as the preview shows, is audited with before and after, and removing the
// edtech's contract stops the launch.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { pseudonymize } from "@/lib/server/data-api/pseudonym";
import { buildLaunch, type TBuiltLaunch } from "@/lib/server/launch/build-launch";
import { createTestTool } from "@/test/fixtures/launch";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { setupTestDatabase } from "@/test/database";
import { listToolSharing } from "./list-tool-sharing";
import { previewToolLaunch } from "./preview-tool-launch";
import { setEdtechLink } from "./set-edtech-link";
import { setToolSharing } from "./set-tool-sharing";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";

setupTestDatabase();
let f: TManagementFixture;
let student: TActingProfile;
let person: { name: string; email: string };

beforeAll(async () => {
  process.env.HUB_BASE_URL = "https://hub.example.org";
  process.env.HUB_SECRET = "management-tool-sharing-secret-0123456789";
  resetEnvCache();
  f = await createManagementFixture();
  student = { id: f.school1.studentId, role: "aluno", institutionId: f.school1.id };
  const p = await db().person.findUniqueOrThrow({ where: { id: f.school1.studentPersonId } });
  person = { name: p.name, email: p.email! };
});

const rules = (overrides: Record<string, string>) =>
  ({ nome_usuario: "permitido", idade: "nao_compartilhado", cpf: "nao_compartilhado", email_usuario: "permitido", telefone: "nao_compartilhado", ...overrides }) as const;

/** A tool of its own edtech, linked at the network and placed at school 1 for everyone. */
async function placedTool() {
  const tool = await createTestTool();
  await db().edtechLink.create({ data: { institutionId: f.networkId, edtechId: tool.edtechId } });
  const placement = await db().placement.create({ data: { toolId: tool.id, institutionId: f.school1.id, roles: [] } });
  return { tool, placementId: placement.id };
}

const lisPerson = (launch: TBuiltLaunch) => launch.fields.filter(([name]) => name.startsWith("lis_person_"));

async function preview(toolId: string) {
  const result = await previewToolLaunch({ scope: f.manager1, institutionId: f.school1.id, toolId, profileId: f.school1.studentId });
  if (result.status !== "ok") throw new Error(`preview: ${result.status}`);
  return result.fields;
}

async function audits(toolId: string) {
  return db().auditLog.findMany({ where: { targetId: toolId, targetType: "tool_sharing" }, orderBy: { createdAt: "asc" } });
}

describe("setToolSharing → the next launch and the preview", () => {
  it("name not shared: the launch has no lis_person_name_*; the preview shows the same fields; audited with before and after", async () => {
    const { tool, placementId } = await placedTool();
    await setToolSharing({ scope: f.manager1, settings: { institutionId: f.school1.id, toolId: tool.id, rules: rules({ nome_usuario: "nao_compartilhado" }) } });
    const launch = await buildLaunch({ placementId, profile: student });
    expect(lisPerson(launch)).toEqual([["lis_person_contact_email_primary", person.email]]);
    expect(launch.fields.map(([, v]) => v).join("\n")).not.toContain(person.name);
    expect(await preview(tool.id)).toEqual(lisPerson(launch));

    const [entry] = await audits(tool.id);
    expect(entry).toMatchObject({ action: "tool_sharing.set", institutionId: f.school1.id, edtechId: tool.edtechId, actorPersonId: f.manager1.personId });
    expect(entry!.details).toEqual({ partnerName: tool.title, before: null, after: { allowed: ["email_usuario"], anonymized: [] } });
  });

  it("name anonymized: the launch carries the tool's pseudonym, as the preview does", async () => {
    const { tool, placementId } = await placedTool();
    await setToolSharing({ scope: f.manager1, settings: { institutionId: f.school1.id, toolId: tool.id, rules: rules({}) } });
    await setToolSharing({ scope: f.manager1, settings: { institutionId: f.school1.id, toolId: tool.id, rules: rules({ nome_usuario: "anonimizado", email_usuario: "nao_compartilhado" }) } });
    const launch = await buildLaunch({ placementId, profile: student });
    expect(lisPerson(launch)).toEqual([["lis_person_name_full", pseudonymize({ applicationId: tool.id, attribute: "nome_usuario", value: person.name })]]);
    expect(await preview(tool.id)).toEqual(lisPerson(launch));
    const entries = await audits(tool.id);
    expect(entries.map((e) => e.details)).toEqual([
      { partnerName: tool.title, before: null, after: { allowed: ["nome_usuario", "email_usuario"], anonymized: [] } },
      { partnerName: tool.title, before: { allowed: ["nome_usuario", "email_usuario"], anonymized: [] }, after: { allowed: ["nome_usuario"], anonymized: ["nome_usuario"] } },
    ]);
  });

  it("the list shows own and inherited rules; 'inherit' drops the school's own rule and the network's applies", async () => {
    const { tool, placementId } = await placedTool();
    await setToolSharing({ scope: f.network, settings: { institutionId: f.networkId, toolId: tool.id, rules: rules({ email_usuario: "anonimizado" }) } });
    await setToolSharing({ scope: f.manager1, settings: { institutionId: f.school1.id, toolId: tool.id, rules: rules({ nome_usuario: "nao_compartilhado", email_usuario: "nao_compartilhado" }) } });
    const row = (await listToolSharing({ scope: f.manager1, institutionId: f.school1.id })).find((t) => t.toolId === tool.id)!;
    expect(row).toMatchObject({ placedHere: true, own: { nome_usuario: "nao_compartilhado", email_usuario: "nao_compartilhado" }, inherited: { institutionId: f.networkId, rules: { nome_usuario: "permitido", email_usuario: "anonimizado" } } });
    expect(lisPerson(await buildLaunch({ placementId, profile: student }))).toEqual([]);

    await setToolSharing({ scope: f.manager1, remove: { institutionId: f.school1.id, toolId: tool.id } });
    const launch = await buildLaunch({ placementId, profile: student });
    expect(new Map(lisPerson(launch))).toEqual(new Map([["lis_person_name_full", person.name], ["lis_person_contact_email_primary", pseudonymize({ applicationId: tool.id, attribute: "email_usuario", value: person.email })]]));
    expect((await audits(tool.id)).at(-1)).toMatchObject({ action: "tool_sharing.delete", details: { before: { allowed: [], anonymized: [] }, after: null } });
  });

  it("refuses a tool without a contract, bad input, and an institution out of reach", async () => {
    const unlinked = await createTestTool();
    await expect(setToolSharing({ scope: f.manager1, settings: { institutionId: f.school1.id, toolId: unlinked.id, rules: rules({}) } })).rejects.toMatchObject({ code: "not_found" });
    const { tool } = await placedTool();
    await expect(setToolSharing({ scope: f.manager1, settings: { institutionId: f.school2.id, toolId: tool.id, rules: rules({}) } })).rejects.toBeInstanceOf(AppError);
    await expect(setToolSharing({ scope: f.manager1, settings: { institutionId: f.school1.id, toolId: tool.id, rules: rules({ nome_usuario: "talvez" }) } })).rejects.toThrow();
    expect(await audits(tool.id)).toEqual([]);
  });
});

describe("removing the edtech's contract", () => {
  it("stops the launch at once (forbidden), and the preview says so", async () => {
    const { tool, placementId } = await placedTool();
    await setToolSharing({ scope: f.manager1, settings: { institutionId: f.school1.id, toolId: tool.id, rules: rules({}) } });
    await expect(buildLaunch({ placementId, profile: student })).resolves.toBeDefined();
    await setEdtechLink({ scope: f.network, institutionId: f.networkId, edtechId: tool.edtechId, linked: false });
    await expect(buildLaunch({ placementId, profile: student })).rejects.toMatchObject({ code: "forbidden" });
    expect(await previewToolLaunch({ scope: f.manager1, institutionId: f.school1.id, toolId: tool.id, profileId: f.school1.studentId })).toEqual({ status: "no_contract" });
    expect((await listToolSharing({ scope: f.manager1, institutionId: f.school1.id })).map((t) => t.toolId)).not.toContain(tool.id);
  });
});
