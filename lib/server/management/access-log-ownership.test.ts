// The institution owns its logs (privacy issue #14, point 5): an application deleted by its
// edtech leaves the institution's record of its reads in place, under the name it had.
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { readDataPage } from "@/lib/server/data-api/read-data-page";
import { summarizeEvents } from "@/lib/server/data-api/summarize-events";
import { createPartner, linkEdtech, waitForVisibleEvents, type TPartner } from "@/lib/server/data-api/testing";
import { deleteApplication } from "@/lib/server/developer/delete-application";
import { createDeveloper, type TTestDeveloper } from "@/lib/server/developer/testing";
import { setupTestDatabase } from "@/test/database";
import { listDataAccessLogs } from "./list-data-access-logs";
import { setApplicationAccess } from "./set-application-access";
import { createManagementFixture, type TManagementFixture } from "./testing";

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
