// The institution owns its logs (privacy issue #14, point 5): an application deleted by its
// edtech leaves the institution's record of its reads in place, under the name it had; and the
// history of sharing-rule changes says who changed what, from what to what.
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { readDataPage } from "@/lib/server/data-api/read-data-page";
import { summarizeEvents } from "@/lib/server/data-api/summarize-events";
import { createPartner, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";
import { deleteApplication } from "@/lib/server/developer/delete-application";
import { createDeveloper, type TTestDeveloper } from "@/test/fixtures/developer";
import { setupTestDatabase } from "@/test/database";
import { listDataAccessLogs } from "./list-data-access-logs";
import { listSharingRuleChanges } from "./list-sharing-rule-changes";
import { setApplicationAccess } from "./set-application-access";
import { setEdtechLink } from "./set-edtech-link";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";

const t = setupTestDatabase();
let f: TManagementFixture;
let dev: TTestDeveloper;
let doomed: TPartner;
let kept: TPartner;

const rules = (overrides: Record<string, string>) =>
  ({ nome_usuario: "permitido", idade: "nao_compartilhado", cpf: "nao_compartilhado", email_usuario: "nao_compartilhado", telefone: "nao_compartilhado", ...overrides }) as const;

beforeAll(async () => {
  process.env.HUB_SECRET = "access-log-ownership-secret-0123456789";
  resetEnvCache();
  f = await createManagementFixture();
  dev = await createDeveloper("Dona da Leitora");
  doomed = await createPartner("Leitora Efêmera", dev.edtechId);
  kept = await createPartner("Leitora Fiel", dev.edtechId);
  await linkEdtech(f.networkId, dev.edtechId);
});

const read = async (partner: TPartner, orgId: string, query: Record<string, string> = {}) => {
  await waitForVisibleEvents();
  return readDataPage({ apiKey: partner.key, orgId, searchParams: new URLSearchParams({ limit: "10", ...query }) });
};

describe("access-log rows outlive the application", () => {
  it("deleting an application keeps its rows, listed with the name it had and marked deleted", async () => {
    await setApplicationAccess({ scope: f.network, settings: { institutionId: f.networkId, applicationId: doomed.applicationId, rules: rules({}) } });
    await read(doomed, f.school1.id, { only: "usuario" });
    await summarizeEvents({ apiKey: doomed.key, orgId: f.school1.id, searchParams: new URLSearchParams() });
    await expect(read(doomed, f.school2.id, { only: "turma" })).resolves.toBeDefined();
    await read(kept, f.school1.id).catch(() => undefined); // 403: no access row, still logged
    await flushAccessLogs();
    const before = await listDataAccessLogs({ scope: f.network, institutionId: f.networkId, applicationId: doomed.applicationId, page: 1, pageSize: 100 });
    expect(before.total).toBe(3);
    // The Data API row names the personal attributes the read could carry, never a value.
    expect(before.items.find((r) => r.channel === "data_api" && r.institutionId === f.school1.id)).toMatchObject({ attributes: ["nome_usuario"], status: 200 });

    await deleteApplication({ actorPersonId: dev.personId, applicationId: doomed.applicationId, confirmName: "Leitora Efêmera app" });
    expect(await t.db.prisma.oAuthApplication.count({ where: { id: doomed.applicationId } })).toBe(0);

    const after = await listDataAccessLogs({ scope: f.network, institutionId: f.networkId, page: 1, pageSize: 100 });
    const orphaned = after.items.filter((r) => r.partner.name === "Leitora Efêmera app");
    expect(orphaned).toHaveLength(3);
    expect(orphaned.map((r) => r.channel).sort()).toEqual(["data_api", "data_api", "summary"]);
    for (const row of orphaned) expect(row.partner).toEqual({ id: null, kind: "application", name: "Leitora Efêmera app", deleted: true });
    expect(after.partners).toEqual(
      expect.arrayContaining([
        { id: null, kind: "application", name: "Leitora Efêmera app", deleted: true },
        { id: kept.applicationId, kind: "application", name: "Leitora Fiel app", deleted: false },
      ]),
    );

    // Filtered by the deleted partner, by channel, and seen from one school.
    const byPartner = await listDataAccessLogs({ scope: f.network, institutionId: f.networkId, partner: { kind: "deleted", name: "Leitora Efêmera app" }, page: 1 });
    expect(byPartner.total).toBe(3);
    const summaries = await listDataAccessLogs({ scope: f.network, institutionId: f.networkId, channel: "summary", page: 1 });
    expect(summaries.items.map((r) => r.partner.name)).toEqual(["Leitora Efêmera app"]);
    const school1 = await listDataAccessLogs({ scope: f.manager1, institutionId: f.school1.id, page: 1 });
    expect(school1.items.filter((r) => r.partner.deleted).map((r) => r.channel).sort()).toEqual(["data_api", "summary"]);
    const kepts = await listDataAccessLogs({ scope: f.manager1, institutionId: f.school1.id, partner: { kind: "application", id: kept.applicationId }, page: 1 });
    expect(kepts.items.map((r) => [r.status, r.partner.deleted])).toEqual([[403, false]]);
  });
});

describe("the history of sharing-rule changes", () => {
  it("says who changed which partner, when, from what to what; filterable by partner; names a deleted partner", async () => {
    const partner = await createPartner("Leitora Regrada", dev.edtechId);
    const settings = (overrides: Record<string, string>) => ({ institutionId: f.school1.id, applicationId: partner.applicationId, rules: rules(overrides) });
    await setApplicationAccess({ scope: f.manager1, settings: settings({}) });
    await setApplicationAccess({ scope: f.manager1, settings: settings({ email_usuario: "anonimizado", idade: "permitido" }) });
    await setApplicationAccess({ scope: f.manager1, remove: { institutionId: f.school1.id, applicationId: partner.applicationId } });

    const history = await listSharingRuleChanges({ scope: f.manager1, institutionId: f.school1.id, partnerId: partner.applicationId, page: 1 });
    expect(history.items.map((r) => [r.action, r.change])).toEqual([
      ["application_access.delete", { kind: "sharing", before: { allowed: ["nome_usuario", "idade", "email_usuario"], anonymized: ["email_usuario"] }, after: null }],
      [
        "application_access.set",
        { kind: "sharing", before: { allowed: ["nome_usuario"], anonymized: [] }, after: { allowed: ["nome_usuario", "idade", "email_usuario"], anonymized: ["email_usuario"] } },
      ],
      ["application_access.set", { kind: "sharing", before: null, after: { allowed: ["nome_usuario"], anonymized: [] } }],
    ]);
    for (const row of history.items) {
      expect(row).toMatchObject({ actorName: "Gestor Um", institutionId: f.school1.id, institutionName: "Escola Um" });
      expect(row.partner).toEqual({ id: partner.applicationId, kind: "application", name: "Leitora Regrada app", deleted: false });
    }

    // The network manager sees the school's changes too, and the edtech contract's, with the other partners in the filter.
    await setEdtechLink({ scope: f.manager2, institutionId: f.school2.id, edtechId: dev.edtechId, linked: true });
    const network = await listSharingRuleChanges({ scope: f.network, institutionId: f.networkId, page: 1, pageSize: 100 });
    expect(network.items[0]).toMatchObject({ action: "edtech_link.create", actorName: "Gestor Dois", change: { kind: "contract", before: false, after: true }, partner: { kind: "edtech", id: dev.edtechId } });
    expect(network.partners.map((p) => p.id)).toEqual(expect.arrayContaining([partner.applicationId, dev.edtechId]));
    // A manager of school 2 does not see school 1's changes.
    const school2 = await listSharingRuleChanges({ scope: f.manager2, institutionId: f.school2.id, page: 1 });
    expect(school2.items.map((r) => r.action)).toEqual(["edtech_link.create"]);

    await deleteApplication({ actorPersonId: dev.personId, applicationId: partner.applicationId, confirmName: "Leitora Regrada app" });
    const orphaned = await listSharingRuleChanges({ scope: f.manager1, institutionId: f.school1.id, partnerId: partner.applicationId, page: 1 });
    expect(orphaned.total).toBe(3);
    expect(orphaned.items[0]!.partner).toEqual({ id: partner.applicationId, kind: "application", name: "Leitora Regrada app", deleted: true });
  });
});
