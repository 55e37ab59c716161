// OneRoster 1.2 enabled per application by the manager (issue #43 point 2, ADR 039): the sharing
// rule's form carries the checkbox, the rule row keeps it, the nearest rule row up the tree
// decides (a school's own rule without it turns it off there), the token endpoint's list of
// enabling institutions follows, and the history shows it before → after.
import { beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { resetEnvCache } from "@/lib/env";
import { createPartner, linkEdtech, type TPartner } from "@/test/fixtures/data-api";
import { createSchool, type TSchool } from "@/test/fixtures/launch";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { listOneRosterEnablements } from "@/lib/server/oneroster/list-oneroster-enablements";
import { parseSharingRuleForm } from "@/lib/validations/management";
import { setupTestDatabase } from "@/test/database";
import { listApplicationAccess } from "./list-application-access";
import { listSharingRuleChanges } from "./list-sharing-rule-changes";
import { resolveManagerScope, type TManagerScope } from "./resolve-manager-scope";
import { setApplicationAccess } from "./set-application-access";

setupTestDatabase();
let s: TSchool;
let networkScope: TManagerScope;
let schoolScope: TManagerScope;
let app: TPartner;

const rules = { nome_usuario: "permitido", idade: "nao_compartilhado", cpf: "nao_compartilhado", email_usuario: "anonimizado", telefone: "nao_compartilhado" } as const;

async function managerOf(institutionId: string, name: string): Promise<TManagerScope> {
  const person = await createPerson({ name });
  const profile = await createProfile({ personId: person.id, institutionId, role: "gestor" });
  return resolveManagerScope({ personId: person.id, profileId: profile.id });
}

beforeAll(async () => {
  process.env.HUB_BASE_URL = "https://hub.example.org";
  process.env.HUB_SECRET = "management-oneroster-secret-0123456789abcdef";
  resetEnvCache();
  s = await createSchool();
  networkScope = await managerOf(s.networkId, "Gestora da Rede");
  schoolScope = await managerOf(s.schoolId, "Gestor da Escola");
  app = await createPartner("RosterGestao");
  await linkEdtech(s.networkId, app.edtechId);
});

const rowAt = async (scope: TManagerScope, institutionId: string) =>
  (await listApplicationAccess({ scope, institutionId })).find((a) => a.applicationId === app.applicationId)!;

describe("the sharing rule form's OneRoster checkbox", () => {
  const form = { mode: "propria", ...rules };

  it("checked is oneRoster=1; unchecked is absent; inheriting ignores it", () => {
    expect(parseSharingRuleForm({ ...form, oneRoster: "1" })).toMatchObject({ remove: false, oneRoster: true });
    expect(parseSharingRuleForm(form)).toMatchObject({ remove: false, oneRoster: false });
    expect(parseSharingRuleForm({ mode: "herdar", oneRoster: "1" })).toEqual({ remove: true });
  });

  it("any other value is refused, naming the field", () => {
    let thrown: unknown;
    try {
      parseSharingRuleForm({ ...form, oneRoster: "sim" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ZodError);
    expect((thrown as ZodError).issues.map((i) => i.path.join("."))).toEqual(["oneRoster"]);
  });
});

describe("OneRoster on the rule row, inherited like the attributes", () => {
  it("off until a rule turns it on: no enabling institution", async () => {
    await setApplicationAccess({ scope: networkScope, settings: { institutionId: s.networkId, applicationId: app.applicationId, rules } });
    expect((await rowAt(networkScope, s.networkId)).oneRosterEnabled).toBe(false);
    expect(await listOneRosterEnablements({ applicationId: app.applicationId, edtechId: app.edtechId })).toEqual([]);
  });

  it("the network's rule turns it on there and for the schools that follow it", async () => {
    await setApplicationAccess({ scope: networkScope, settings: { institutionId: s.networkId, applicationId: app.applicationId, rules, oneRoster: true } });
    expect(await rowAt(networkScope, s.networkId)).toMatchObject({ enabled: true, oneRosterEnabled: true, ownOneRoster: true });
    expect(await rowAt(schoolScope, s.schoolId)).toMatchObject({ enabled: true, oneRosterEnabled: true, own: null, inherited: { institutionId: s.networkId, oneRoster: true } });
    const enabled = await listOneRosterEnablements({ applicationId: app.applicationId, edtechId: app.edtechId });
    expect(enabled.map((e) => [e.institutionId, e.kind])).toEqual([[s.networkId, "network"]]);
  });

  it("a school's own rule without it turns it off at the school only (the nearest rule row decides)", async () => {
    await setApplicationAccess({ scope: schoolScope, settings: { institutionId: s.schoolId, applicationId: app.applicationId, rules } });
    expect(await rowAt(schoolScope, s.schoolId)).toMatchObject({ enabled: true, oneRosterEnabled: false, ownOneRoster: false });
    expect((await rowAt(networkScope, s.otherSchoolId)).oneRosterEnabled).toBe(true);
    expect((await listOneRosterEnablements({ applicationId: app.applicationId, edtechId: app.edtechId })).map((e) => e.institutionId)).toEqual([s.networkId]);
    // Back to inheriting: on again.
    await setApplicationAccess({ scope: schoolScope, remove: { institutionId: s.schoolId, applicationId: app.applicationId } });
    expect((await rowAt(schoolScope, s.schoolId)).oneRosterEnabled).toBe(true);
  });

  it("the history shows it before → after", async () => {
    await setApplicationAccess({ scope: networkScope, settings: { institutionId: s.networkId, applicationId: app.applicationId, rules } });
    const history = await listSharingRuleChanges({ scope: networkScope, institutionId: s.networkId, partnerId: app.applicationId, page: 1, pageSize: 100 });
    const atNetwork = history.items.filter((r) => r.institutionId === s.networkId).map((r) => r.change);
    const lists = { allowed: ["nome_usuario", "email_usuario"], anonymized: ["email_usuario"] };
    expect(atNetwork).toEqual([
      { kind: "sharing", before: { ...lists, oneRoster: true }, after: lists },
      { kind: "sharing", before: lists, after: { ...lists, oneRoster: true } },
      { kind: "sharing", before: null, after: lists },
    ]);
    expect(await listOneRosterEnablements({ applicationId: app.applicationId, edtechId: app.edtechId })).toEqual([]);
  });
});
