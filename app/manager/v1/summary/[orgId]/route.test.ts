// GET /manager/v1/summary/{org_id} on a three-level hierarchy: Rede → Escola A → Unidade A1, plus
// Escola B.
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { createPartner, grantAccess, linkEdtech, type TPartner } from "@/test/fixtures/data-api";
import type { TCounts, TSummaryNode } from "@/lib/server/data-api/summarize-events";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { unenrollStudent } from "@/lib/server/school-data/unenroll-student";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { ENTITY_NAMES, EVENT_KINDS, ZSummaryNodeSchema } from "@/lib/validations/data-api";
import { setupTestDatabase } from "@/test/database";
import { GET as getWithoutOrg } from "../route";
import { GET } from "./route";

const t = setupTestDatabase();
const f = { network: "", a: "", a1: "", b: "", other: "", partner: {} as TPartner, noAccess: {} as TPartner };

async function summary(orgId: string | undefined, query = "", key: string | null = f.partner.key) {
  const url = new URL(`/manager/v1/summary${orgId === undefined ? "" : `/${orgId}`}${query ? `?${query}` : ""}`, "http://hub.test");
  const request = new NextRequest(url, { headers: key === null ? {} : { "x-api-key": key } });
  const response = orgId === undefined ? await getWithoutOrg(request) : await GET(request, { params: Promise.resolve({ orgId }) });
  return { status: response.status, body: (await response.json()) as TSummaryNode & { message?: string; fields?: Record<string, string> } };
}

/** Own counts straight from the database, for comparison. */
async function ownCounts(institutionId: string): Promise<TCounts> {
  const groups = await t.db.prisma.changeEvent.groupBy({ by: ["entity", "kind"], where: { institutionId }, _count: { _all: true } });
  const counts: TCounts = Object.fromEntries(ENTITY_NAMES.map((e) => [e, { insert: 0, update: 0, delete: 0 }]));
  for (const g of groups) counts[g.entity]![g.kind] = g._count._all;
  return counts;
}

function sum(...all: TCounts[]): TCounts {
  const out: TCounts = {};
  for (const c of all) {
    for (const [entity, kinds] of Object.entries(c) as [keyof TCounts, Record<string, number>][]) {
      const target = (out[entity] ??= {}) as Record<string, number>;
      for (const [kind, n] of Object.entries(kinds)) target[kind] = (target[kind] ?? 0) + n;
    }
  }
  return out;
}

/** total = own + Σ children's totals, at every node. */
function expectTotalsConsistent(node: TSummaryNode): void {
  expect(node.total).toEqual(sum(node.contagens, ...node.filhos.map((c) => c.total)));
  node.filhos.forEach(expectTotalsConsistent);
}

beforeAll(async () => {
  process.env.HUB_SECRET = "summary-route-test-secret-0123456789ab";
  resetEnvCache();
  f.network = (await createInstitution({ name: "Rede Estadual", kind: "network" })).id;
  f.b = (await createInstitution({ name: "Escola B", kind: "school", parentId: f.network })).id;
  f.a = (await createInstitution({ name: "Escola A", kind: "school", parentId: f.network })).id;
  f.a1 = (await createInstitution({ name: "Unidade A1", kind: "school", parentId: f.a })).id;
  f.other = (await createInstitution({ name: "Rede Outra", kind: "network" })).id;

  const student = async (name: string, institutionId: string) =>
    createProfile({ personId: (await createPerson({ name })).id, institutionId, role: "aluno" });
  // The network itself has a manager profile: its own events.
  await createProfile({ personId: (await createPerson({ name: "Gestora Rede" })).id, institutionId: f.network, role: "gestor" });
  const s1 = await student("Aluno Um", f.a);
  const s2 = await student("Aluno Dois", f.a);
  const period = await createPeriod({ institutionId: f.a, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
  const cls = await createClass({ periodId: period.id, name: "1º A" });
  await enrollStudent({ classId: cls.id, studentId: s1.id });
  const e2 = await enrollStudent({ classId: cls.id, studentId: s2.id });
  await unenrollStudent({ enrollmentId: e2.id });
  await student("Aluno Três", f.a1);
  await createSubject({ institutionId: f.a1, name: "Robótica" });
  const s4 = await student("Aluno Quatro", f.b);
  await updatePerson({ personId: s4.personId, changes: { phone: "11 96666-5555" } });
  await student("Aluno Fora", f.other);
  // Deterministic times: the n-th event at 2026-03-01 00:00 -03:00 + n hours.
  await t.db.sql.query(`
    UPDATE "ChangeEvent" c SET "occurredAt" = timestamptz '2026-03-01 00:00:00-03' + r.n * interval '1 hour'
    FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM "ChangeEvent") r WHERE r.seq = c.seq`);

  f.partner = await createPartner("Edtech S");
  f.noAccess = await createPartner("Edtech S", f.partner.edtechId);
  await linkEdtech(f.network, f.partner.edtechId);
  // telefone shared, so Aluno Quatro's phone update is among the events the partner is sent.
  await grantAccess(f.network, f.partner.applicationId, { allowed: ["telefone"], anonymized: ["telefone"] });
});

describe("summary tree", () => {
  it("network → schools → unit, children by name, matching the documented schema", async () => {
    const r = await summary(f.network);
    expect(r.status).toBe(200);
    expect(ZSummaryNodeSchema.safeParse(r.body).success).toBe(true);
    expect(r.body.instituicao).toEqual({ id: f.network, nome: "Rede Estadual", tipo: "network" });
    expect(r.body.filhos.map((c) => c.instituicao.nome)).toEqual(["Escola A", "Escola B"]);
    expect(r.body.filhos[0]!.filhos.map((c) => [c.instituicao.nome, c.instituicao.tipo, c.filhos.length])).toEqual([["Unidade A1", "school", 0]]);
  });

  it("own counts equal the institution's events; totals equal own + children at every level", async () => {
    const r = await summary(f.network);
    const [a, b] = r.body.filhos;
    const a1 = a!.filhos[0]!;
    expect(r.body.contagens).toEqual(await ownCounts(f.network));
    expect(a!.contagens).toEqual(await ownCounts(f.a));
    expect(a1.contagens).toEqual(await ownCounts(f.a1));
    expect(b!.contagens).toEqual(await ownCounts(f.b));
    expectTotalsConsistent(r.body);
    expect(r.body.total).toEqual(sum(await ownCounts(f.network), await ownCounts(f.a), await ownCounts(f.a1), await ownCounts(f.b)));
    expect(a!.contagens.turmaAluno).toEqual({ insert: 2, update: 0, delete: 1 });
    expect(r.body.total.usuario).toEqual({ insert: 5, update: 1, delete: 0 });
  });

  it("a school's summary covers its subtree only", async () => {
    const r = await summary(f.a);
    expect(r.body.filhos.map((c) => c.instituicao.id)).toEqual([f.a1]);
    expect(r.body.total).toEqual(sum(await ownCounts(f.a), await ownCounts(f.a1)));
  });

  it("only/except/event keep just the requested entities and kinds", async () => {
    const r = await summary(f.network, "only=turmaAluno,usuario&except=usuario&event=insert,delete");
    expect(r.body.contagens).toEqual({ turmaAluno: { insert: 0, delete: 0 } });
    expect(r.body.total).toEqual({ turmaAluno: { insert: 2, delete: 1 } });
    expectTotalsConsistent(r.body);
  });

  it("min_date/max_date (hub zone, inclusive)", async () => {
    // Events 1..3: the network's gestor and Escola A's first two students.
    const r = await summary(f.network, "max_date=2026/03/01+03:00:00&event=insert&only=usuario");
    expect(r.body.total).toEqual({ usuario: { insert: 3 } });
    expect(r.body.contagens).toEqual({ usuario: { insert: 1 } });
    const later = await summary(f.network, "min_date=2026/03/01%2B04:00:00&only=usuario");
    expect(later.body.total.usuario).toEqual({ insert: 2, update: 1, delete: 0 });
    expectTotalsConsistent(later.body);
  });

  it("every entity and kind appears by default", async () => {
    const r = await summary(f.a1);
    expect(Object.keys(r.body.contagens)).toEqual([...ENTITY_NAMES]);
    for (const counts of Object.values(r.body.contagens)) expect(Object.keys(counts)).toEqual([...EVENT_KINDS]);
  });
});

describe("summary status codes", () => {
  it("401 / 400 / 404 / 401 / 403 / 400 in order", async () => {
    expect(await summary(f.network, "", null)).toEqual({ status: 401, body: { message: "Unauthorized" } });
    expect(await summary(undefined, "", null)).toEqual({ status: 401, body: { message: "Unauthorized" } });
    expect(await summary(undefined)).toMatchObject({ status: 400, body: { fields: { org_id: expect.any(String) } } });
    expect(await summary("rede")).toMatchObject({ status: 400, body: { message: "Parâmetro inválido: org_id" } });
    expect((await summary("0f8fad5b-d9cb-469f-a165-70867728950e")).status).toBe(404);
    expect(await summary(f.other)).toEqual({ status: 401, body: { message: "Unauthorized" } });
    expect((await summary(f.network, "", f.noAccess.key)).status).toBe(403);
    for (const [query, name] of [["event=upsert", "event"], ["only=x", "only"], ["min_date=2026/03/02+00:00:00&max_date=2026/03/01+00:00:00", "min_date"]]) {
      const r = await summary(f.network, query);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(name);
    }
  });
});
