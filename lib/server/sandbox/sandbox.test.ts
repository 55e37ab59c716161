// A sandbox network on request: fake people only, linked to the edtech's applications (whose new
// key reads it through the Data API) and tools, sandbox users that can sign in, and a burst of
// changes of every kind.
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { db } from "@/lib/server/db/database";
import { authenticatePerson } from "@/lib/server/auth/authenticate-person";
import { readDataPage, type TDataResponse } from "@/lib/server/data-api/read-data-page";
import { setupTestDatabase } from "@/test/database";
import { ALL_ONEROSTER_SCOPES } from "@/lib/oneroster/scopes";
import { readRosteringAs } from "@/lib/server/oneroster/read-rostering";
import { createPartner, type TPartner } from "@/test/fixtures/data-api";
import { waitForOneRosterCut } from "@/test/fixtures/oneroster";
import { createDeveloper, createOutsider, type TTestDeveloper } from "@/test/fixtures/developer";
import { createSandbox, type TCreatedSandbox } from "./create-sandbox";
import { generateSandboxChanges } from "./generate-sandbox-changes";
import { getSandboxes } from "./get-sandboxes";

setupTestDatabase();
let developer: TTestDeveloper;
let created: TCreatedSandbox;
let partner: TPartner;

const read = async (key: string, cursor?: string): Promise<TDataResponse> =>
  (await readDataPage({ apiKey: key, orgId: created.institutionId, searchParams: new URLSearchParams({ limit: "1000", ...(cursor ? { cursor } : {}) }) })).parse();

beforeAll(async () => {
  process.env.HUB_SECRET = "sandbox-test-secret-0123456789abcdefgh";
  resetEnvCache();
  developer = await createDeveloper("Areia");
  partner = await createPartner("Areia", developer.edtechId);
  created = await createSandbox({ actorPersonId: developer.personId, edtechId: developer.edtechId });
}, 60_000);

describe("a sandbox network", () => {
  it("is readable with its new key: schools, classes and fake people under the rule it set", async () => {
    expect(created.keys).toHaveLength(1);
    const body = await read(created.keys[0]!.key);
    expect(body.dados.usuario!.length).toBe(2 * (2 + 3 + 20));
    expect(body.dados.turma).toHaveLength(4);
    expect(body.dados.turmaAluno).toHaveLength(40);
    expect(body.dados.disciplinaProfessor).toHaveLength(8);
    expect(body.dados.responsavelAluno).toHaveLength(6);
    for (const event of body.dados.usuario!) {
      expect(String(event.registro.nome_usuario)).toMatch(/Fictício/);
      expect(String(event.registro.email_usuario)).toMatch(/@sandbox\.invalid$/);
      expect(event.registro.cpf ?? null).toBeNull();
    }
  });

  it("is readable through OneRoster 1.2 too: its two schools and their students", async () => {
    await waitForOneRosterCut();
    const client = { clientId: partner.clientId, scopes: new Set(ALL_ONEROSTER_SCOPES) };
    const schools = await readRosteringAs(client, { segments: ["schools"], query: new URLSearchParams() });
    expect(schools.status).toBe(200);
    expect((schools.body as { orgs: { name: string }[] }).orgs.map((o) => o.name).sort(), JSON.stringify(schools.body)).toEqual(["Escola Sandbox Norte · Edtech Areia", "Escola Sandbox Sul · Edtech Areia"]);
    const students = await readRosteringAs(client, { segments: ["students"], query: new URLSearchParams({ limit: "1000" }) });
    expect((students.body as { users: unknown[] }).users).toHaveLength(40);
  });

  it("is one per edtech, and only for its members", async () => {
    expect(((await createSandbox({ actorPersonId: developer.personId, edtechId: developer.edtechId }).catch((e: unknown) => e)) as AppError).code).toBe("conflict");
    const outsider = await createOutsider("Curioso");
    expect(((await generateSandboxChanges({ actorPersonId: outsider, edtechId: developer.edtechId }).catch((e: unknown) => e)) as AppError).code).toBe("forbidden");
  });

  it("prints sign-ins that work with its password", async () => {
    const [view] = await getSandboxes({ personId: developer.personId });
    expect(view!.sandbox!.password).toBe(created.password);
    expect(view!.sandbox!.logins.map((l) => l.role)).toEqual(["aluno", "professor", "responsavel"]);
    const result = await authenticatePerson({ login: view!.sandbox!.logins[0]!.email, password: created.password, ip: "127.0.0.1" });
    expect(result.ok).toBe(true);
  });

  it("generates inserts, updates and deletes that the feed carries", async () => {
    const before = await read(created.keys[0]!.key);
    const counts = await generateSandboxChanges({ actorPersonId: developer.personId, edtechId: developer.edtechId });
    expect(counts.inserts).toBeGreaterThan(0);
    expect(counts.updates).toBeGreaterThan(0);
    expect(counts.deletes).toBeGreaterThan(0);
    const after = await read(created.keys[0]!.key, before.paginacao.cursorRetomada);
    const kinds = new Set(Object.values(after.dados).flat().map((e) => e!.evento));
    expect([...kinds].sort()).toEqual(["delete", "insert", "update"]);
    expect(await db().placement.count({ where: { institutionId: created.institutionId } })).toBe(0); // the edtech has no tool
  });
});
