import { beforeAll, describe, expect, it } from "vitest";
import { createSchool, createTestTool, placeTool, type TSchool } from "@/test/fixtures/launch";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { setupTestDatabase } from "@/test/database";
import { getGalleryTool } from "./get-gallery-tool";
import { listGallery } from "./list-gallery";

setupTestDatabase();
let s: TSchool;
const ids = { everyone: "", teachers: "", classA: "", withdrawn: "", other: "", classTool: "" };

beforeAll(async () => {
  s = await createSchool();
  const everyone = await createTestTool({ title: "Laboratório de Frações", shortDescription: "Atividades sobre frações e números decimais." });
  const teachers = await createTestTool({ title: "Planejador de Aulas", shortDescription: "Monte planos de aula." });
  const classTool = await createTestTool({ title: "Mural da Turma", shortDescription: "Recados e tarefas." });
  const withdrawn = await createTestTool({ title: "Ferramenta Antiga", status: "withdrawn" });
  ids.everyone = (await placeTool({ toolId: everyone.id, institutionId: s.schoolId })).id;
  ids.teachers = (await placeTool({ toolId: teachers.id, institutionId: s.schoolId, roles: ["professor", "gestor"] })).id;
  ids.classA = (await placeTool({ toolId: classTool.id, institutionId: s.schoolId, classId: s.classId, title: "Mural do 7º A" })).id;
  ids.withdrawn = (await placeTool({ toolId: withdrawn.id, institutionId: s.schoolId })).id;
  ids.other = (await placeTool({ toolId: everyone.id, institutionId: s.otherSchoolId })).id;
  ids.classTool = classTool.id;
});

const titles = async (profile: TActingProfile, search?: string) => (await listGallery({ profile, search })).map((i) => i.title);

describe("listGallery: the placements the profile may open", () => {
  it("by role, by class and by institution; withdrawn tools never", async () => {
    expect(await titles(s.student)).toEqual(["Laboratório de Frações", "Mural do 7º A"]);
    expect(await titles(s.otherStudent)).toEqual(["Laboratório de Frações"]);
    expect(await titles(s.teacher)).toEqual(["Laboratório de Frações", "Mural do 7º A", "Planejador de Aulas"]);
    expect(await titles(s.guardian)).toEqual(["Laboratório de Frações"]);
    const outsider = await listGallery({ profile: s.outsider });
    expect(outsider.map((i) => i.placementId)).toEqual([ids.other]);
  });

  it("cards carry the placement id, the tool id, the class and the logo address", async () => {
    const [card] = (await listGallery({ profile: s.student, search: "mural" }));
    expect(card).toEqual({ placementId: ids.classA, toolId: ids.classTool, title: "Mural do 7º A", classLabel: "7º ano A", shortDescription: "Recados e tarefas.", logoUrl: null });
  });

  it("search ignores case and accents, matches the short description, and needs every word", async () => {
    expect(await titles(s.teacher, "FRACOES")).toEqual(["Laboratório de Frações"]);
    expect(await titles(s.teacher, "laboratorio")).toEqual(["Laboratório de Frações"]);
    expect(await titles(s.teacher, "decimais")).toEqual(["Laboratório de Frações"]);
    expect(await titles(s.teacher, "  plano   aula ")).toEqual(["Planejador de Aulas"]);
    expect(await titles(s.teacher, "plano frações")).toEqual([]);
    expect(await titles(s.student, "planejador")).toEqual([]);
    expect(await titles(s.teacher, "")).toHaveLength(3);
  });
});

describe("getGalleryTool: the detail view", () => {
  it("shows a tool with the profile's placements of it", async () => {
    const tool = await getGalleryTool({ profile: s.student, toolId: ids.classTool });
    expect(tool).toMatchObject({ title: "Mural da Turma", siteUrl: "https://tool.example", placements: [{ placementId: ids.classA, classLabel: "7º ano A" }] });
  });

  it("is null for a tool the profile has no placement of, an unknown id and a malformed one", async () => {
    expect(await getGalleryTool({ profile: s.otherStudent, toolId: ids.classTool })).toBeNull();
    expect(await getGalleryTool({ profile: s.student, toolId: "00000000-0000-4000-8000-000000000000" })).toBeNull();
    expect(await getGalleryTool({ profile: s.student, toolId: "x' OR 1=1 --" })).toBeNull();
  });
});
