// Usage for managers (issue #19): tools launched as several profiles at two schools, sign-ins by
// password, profile choice and card; the counts per tool, school, day and profile kind, the CSV,
// and the same numbers at /manager/v1/usage with the Data API key's rules.
import { beforeAll, describe, expect, it } from "vitest";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { chooseProfile } from "@/lib/server/auth/choose-profile";
import { issueClassCards } from "@/lib/server/cards/issue-class-cards";
import { requireCardClass } from "@/lib/server/cards/require-card-class";
import { signInWithCard } from "@/lib/server/cards/sign-in-with-card";
import { db } from "@/lib/server/db/database";
import { buildLaunch } from "@/lib/server/launch/build-launch";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { totalsBy, usageCsv } from "@/lib/usage/usage";
import { createPartner, grantAccess } from "@/test/fixtures/data-api";
import { createTestTool, placeTool } from "@/test/fixtures/launch";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { setupTestDatabase } from "@/test/database";
import { getInstitutionUsage, hubToday } from "./get-institution-usage";
import { readUsage } from "./read-usage";

setupTestDatabase();
let f: TManagementFixture;
const tools = { a: { id: "", edtechId: "", title: "Quiz de Ciências" }, b: { id: "", edtechId: "", title: "Mapa Interativo" } };

const acting = (id: string, role: TActingProfile["role"], institutionId: string): TActingProfile => ({ id, role, institutionId });

beforeAll(async () => {
  f = await createManagementFixture();
  const a = await createTestTool({ title: tools.a.title });
  const b = await createTestTool({ title: tools.b.title });
  Object.assign(tools.a, { id: a.id, edtechId: a.edtechId });
  Object.assign(tools.b, { id: b.id, edtechId: b.edtechId });
  const a1 = await placeTool({ toolId: a.id, institutionId: f.school1.id });
  const a2 = await placeTool({ toolId: a.id, institutionId: f.school2.id });
  const b1 = await placeTool({ toolId: b.id, institutionId: f.school1.id });
  const student1 = acting(f.school1.studentId, "aluno", f.school1.id);
  const teacher1 = acting(f.school1.teacherId, "professor", f.school1.id);
  const student2 = acting(f.school2.studentId, "aluno", f.school2.id);
  // Launches: school 1's student opens A twice, its teacher A and B once; school 2's student A once.
  for (const [placementId, profile] of [[a1.id, student1], [a1.id, student1], [a1.id, teacher1], [b1.id, teacher1], [a2.id, student2]] as const) {
    await buildLaunch({ placementId, profile });
  }
  await flushAccessLogs();
  // Sign-ins: school 1's student and teacher choose their profile; school 2's student uses a card.
  const teacherPerson = (await db().profile.findUniqueOrThrow({ where: { id: f.school1.teacherId } })).personId;
  await chooseProfile({ token: { sub: f.school1.studentPersonId }, profileId: f.school1.studentId });
  await chooseProfile({ token: { sub: teacherPerson }, profileId: f.school1.teacherId });
  await chooseProfile({ token: { sub: teacherPerson, profileId: f.school1.teacherId }, profileId: f.school1.teacherId }); // already chosen: not a sign-in
  const manager2 = await db().profile.findUniqueOrThrow({ where: { id: f.manager2.profileId } });
  const cls = await requireCardClass({ user: { personId: manager2.personId, name: "", profile: { id: manager2.id, role: "gestor", institution: { id: f.school2.id, name: "", kind: "school" } } }, classId: f.school2.classId });
  const [card] = await issueClassCards({ cls, actorPersonId: manager2.personId });
  expect((await signInWithCard({ token: card!.url.split("/cracha/")[1]!, address: null })).ok).toBe(true);
});

describe("the manager's usage page", () => {
  it("counts launches per tool, school, profile kind and day, and sign-ins per school and kind, for the whole network", async () => {
    const usage = await getInstitutionUsage({ scope: f.network, institutionId: f.networkId, query: {} });
    const today = hubToday();
    expect(usage.to).toBe(today);
    const launches = usage.rows.filter((r) => r.kind === "launch");
    const signIns = usage.rows.filter((r) => r.kind === "sign_in");
    expect(totalsBy(launches, (r) => r.toolName!)).toEqual([{ label: tools.a.title, count: 4 }, { label: tools.b.title, count: 1 }]);
    expect(totalsBy(launches, (r) => r.institutionName)).toEqual([{ label: "Escola Um", count: 4 }, { label: "Escola Dois", count: 1 }]);
    expect(totalsBy(launches, (r) => r.role!)).toEqual([{ label: "aluno", count: 3 }, { label: "professor", count: 2 }]);
    expect(totalsBy(launches, (r) => r.day)).toEqual([{ label: today, count: 5 }]);
    expect(totalsBy(signIns, (r) => `${r.institutionName}/${r.role}`)).toEqual([
      { label: "Escola Dois/aluno", count: 1 },
      { label: "Escola Um/aluno", count: 1 },
      { label: "Escola Um/professor", count: 1 },
    ]);
    // By method: the picker counts the session's method (password, when the session predates it).
    expect(totalsBy(signIns, (r) => r.method ?? "none")).toEqual([
      { label: "password", count: 2 },
      { label: "card", count: 1 },
    ]);
  });

  it("a school's manager sees only that school; other periods are empty; bad dates are a 400 naming the field", async () => {
    const school1 = await getInstitutionUsage({ scope: f.manager1, institutionId: f.school1.id, query: {} });
    expect(new Set(school1.rows.map((r) => r.institutionName))).toEqual(new Set(["Escola Um"]));
    await expect(getInstitutionUsage({ scope: f.manager1, institutionId: f.school2.id, query: {} })).rejects.toMatchObject({ code: "not_found" });
    expect((await getInstitutionUsage({ scope: f.network, institutionId: f.networkId, query: { de: "2020-01-01", ate: "2020-01-31" } })).rows).toEqual([]);
    await expect(getInstitutionUsage({ scope: f.network, institutionId: f.networkId, query: { de: "2026-02-30" } })).rejects.toMatchObject({ code: "bad_request", fields: { de: "Data inexistente" } });
    await expect(getInstitutionUsage({ scope: f.network, institutionId: f.networkId, query: { de: "2026-03-01", ate: "2026-02-01" } })).rejects.toMatchObject({ code: "bad_request", fields: { ate: expect.any(String) } });
    await expect(getInstitutionUsage({ scope: f.network, institutionId: f.networkId, query: { de: "2024-01-01", ate: "2026-01-01" } })).rejects.toMatchObject({ code: "bad_request" });
  });

  it("the CSV has a header and one line per count, with no person in it", async () => {
    const usage = await getInstitutionUsage({ scope: f.network, institutionId: f.networkId, query: {} });
    const lines = usageCsv(usage.rows).trimEnd().split("\r\n");
    expect(lines[0]).toBe("tipo,dia,instituicao_id,instituicao,ferramenta_id,ferramenta,perfil,quantidade,forma_de_entrada");
    const today = hubToday();
    expect(lines).toContain(`lancamento,${today},${f.school1.id},Escola Um,${tools.a.id},${tools.a.title},aluno,2,`);
    expect(lines).toContain(`lancamento,${today},${f.school1.id},Escola Um,${tools.a.id},${tools.a.title},professor,1,`);
    expect(lines).toContain(`lancamento,${today},${f.school2.id},Escola Dois,${tools.a.id},${tools.a.title},aluno,1,`);
    expect(lines).toContain(`entrada,${today},${f.school2.id},Escola Dois,,,aluno,1,card`);
    expect(lines).toHaveLength(1 + usage.rows.length);
    const csv = lines.join("\n");
    expect(csv).not.toContain(f.school1.studentId);
    expect(csv).not.toContain("Aluno Escola");
  });

  it("quotes fields with commas and neutralises spreadsheet formulas", () => {
    const row = { kind: "launch" as const, day: "2026-11-26", institutionId: "i", institutionName: 'Escola "A", Centro', toolId: "t", toolName: "=HYPERLINK()", role: null, method: null, count: 1 };
    expect(usageCsv([row]).split("\r\n")[1]).toBe(`lancamento,2026-11-26,i,"Escola ""A"", Centro",t,'=HYPERLINK(),desconhecido,1,`);
  });
});

describe("GET /manager/v1/usage/{org_id}", () => {
  it("answers the same numbers for the key's own edtech's tools, with the Data API's errors", async () => {
    const partner = await createPartner("Parceiro Uso", tools.a.edtechId);
    await grantAccess(f.networkId, partner.applicationId, { allowed: [], anonymized: [] });
    await db().edtechLink.createMany({ data: [{ institutionId: f.networkId, edtechId: tools.a.edtechId }], skipDuplicates: true });
    const answer = await readUsage({ apiKey: partner.key, orgId: f.networkId, searchParams: new URLSearchParams() });
    const launches = answer.uso.filter((u) => u.tipo === "lancamento");
    expect(new Set(launches.map((u) => u.ferramenta))).toEqual(new Set([tools.a.title])); // not tool B, another edtech's
    expect(launches.reduce((n, u) => n + u.quantidade, 0)).toBe(4);
    expect(answer.uso.filter((u) => u.tipo === "entrada").reduce((n, u) => n + u.quantidade, 0)).toBe(3);
    await expect(readUsage({ apiKey: "wrong-key-123", orgId: f.networkId, searchParams: new URLSearchParams() })).rejects.toMatchObject({ code: "unauthorized", message: "Unauthorized" });
    await expect(readUsage({ apiKey: partner.key, orgId: undefined, searchParams: new URLSearchParams() })).rejects.toMatchObject({ code: "bad_request" });
    await expect(readUsage({ apiKey: partner.key, orgId: f.networkId, searchParams: new URLSearchParams({ from: "ontem" }) })).rejects.toMatchObject({ code: "bad_request", fields: { from: expect.any(String) } });
    const other = await createPartner("Sem Vínculo");
    await expect(readUsage({ apiKey: other.key, orgId: f.networkId, searchParams: new URLSearchParams() })).rejects.toMatchObject({ code: "unauthorized" });
  });
});
