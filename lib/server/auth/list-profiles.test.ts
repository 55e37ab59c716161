import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { setupTestDatabase } from "@/test/database";
import { listProfiles } from "./list-profiles";

setupTestDatabase();
let f: TManagementFixture;

beforeAll(async () => {
  f = await createManagementFixture();
});

describe("listProfiles", () => {
  it("lists a person's profiles with their institutions, by institution name and then role, as Prisma's query did", async () => {
    const personId = f.school1.studentPersonId;
    // The same person as a guardian at both schools and at the network: two roles at one school.
    for (const institutionId of [f.school2.id, f.school1.id, f.networkId]) await createProfile({ personId, institutionId, role: "responsavel" });
    const listed = await listProfiles({ personId });
    const byPrisma = await db().profile.findMany({
      where: { personId },
      select: { id: true, role: true, institution: { select: { id: true, name: true, kind: true } } },
      orderBy: [{ institution: { name: "asc" } }, { role: "asc" }],
    });
    expect(listed).toHaveLength(4);
    expect(listed).toEqual(byPrisma);
    expect(listed.map((p) => `${p.institution.name} ${p.role}`)).toEqual(["Escola Dois responsavel", "Escola Um aluno", "Escola Um responsavel", "Rede Teste responsavel"]);
    expect(await listProfiles({ personId: "00000000-0000-4000-8000-000000000000" })).toEqual([]);
  });
});
