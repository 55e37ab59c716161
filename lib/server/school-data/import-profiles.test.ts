import { beforeAll, describe, expect, it } from "vitest";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { setupTestDatabase } from "@/test/database";
import { createPerson } from "./create-person";
import { createProfile } from "./create-profile";
import { importProfiles } from "./import-profiles";

const t = setupTestDatabase();
let schoolId = "";

beforeAll(async () => {
  schoolId = (await createInstitution({ name: "Escola Perfis", kind: "school" })).id;
});

describe("importProfiles", () => {
  it("emits the same usuario insert, with the same record shape, as createPerson + createProfile", async () => {
    const single = await createProfile({ personId: (await createPerson({ name: "Prof. Um", cpf: "52998224725", phone: "11 99999-0001" })).id, institutionId: schoolId, role: "professor" });
    const oneByOne = await t.db.prisma.changeEvent.findMany({ where: { profileIds: { has: single.id } } });
    const { profileIds } = await importProfiles({ institutionId: schoolId, people: [{ person: { name: "Prof. Um", cpf: "168.995.350-09", phone: "11 99999-0001" }, role: "professor" }] });
    const batched = await t.db.prisma.changeEvent.findMany({ where: { profileIds: { has: profileIds[0]! } } });
    expect(batched.map((e) => [e.entity, e.kind, e.periodCode])).toEqual(oneByOne.map((e) => [e.entity, e.kind, e.periodCode]));
    const strip = (r: unknown) => {
      const { id: _id, pessoaId: _p, cpf: _c, ...rest } = r as Record<string, unknown>;
      return rest;
    };
    expect(strip(batched[0]!.record)).toEqual(strip(oneByOne[0]!.record));
  });

  it("is all or nothing: a CPF already registered leaves no person, profile or event", async () => {
    const before = { people: await t.db.prisma.person.count(), events: await t.db.prisma.changeEvent.count() };
    await expect(
      importProfiles({
        institutionId: schoolId,
        people: [
          { person: { name: "Nova Pessoa" }, role: "responsavel" },
          { person: { name: "CPF Repetido", cpf: "529.982.247-25" }, role: "responsavel" },
        ],
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await t.db.prisma.person.count()).toBe(before.people);
    expect(await t.db.prisma.changeEvent.count()).toBe(before.events);
  });
});
