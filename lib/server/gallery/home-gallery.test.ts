// The home gallery for daily use (issue #19): pins first, "used recently" from the launch log,
// and a teacher's class page with the class's tools.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { getTeacherClass } from "@/lib/server/classes/get-teacher-class";
import { listTeacherClasses } from "@/lib/server/classes/list-teacher-classes";
import { createSchool, createTestTool, placeTool, type TSchool } from "@/test/fixtures/launch";
import { setupTestDatabase } from "@/test/database";
import { listHomeGallery } from "./list-home-gallery";
import { setFavourite } from "./set-favourite";

setupTestDatabase();
let s: TSchool;
const ids = { fracoes: "", mural: "", planner: "", other: "", studentsOnly: "", fracoesTool: "", plannerTool: "" };

beforeAll(async () => {
  s = await createSchool();
  const fracoes = await createTestTool({ title: "Laboratório de Frações" });
  const planner = await createTestTool({ title: "Planejador de Aulas" });
  const mural = await createTestTool({ title: "Mural da Turma" });
  const quiz = await createTestTool({ title: "Quiz dos Alunos" });
  ids.fracoes = (await placeTool({ toolId: fracoes.id, institutionId: s.schoolId })).id;
  ids.planner = (await placeTool({ toolId: planner.id, institutionId: s.schoolId, roles: ["professor"] })).id;
  ids.mural = (await placeTool({ toolId: mural.id, institutionId: s.schoolId, classId: s.classId, title: "Mural do 7º A" })).id;
  ids.studentsOnly = (await placeTool({ toolId: quiz.id, institutionId: s.schoolId, classId: s.classId, roles: ["aluno"] })).id;
  ids.other = (await placeTool({ toolId: fracoes.id, institutionId: s.otherSchoolId })).id;
  ids.fracoesTool = fracoes.id;
  ids.plannerTool = planner.id;
});

const titles = async (profile: TSchool["teacher"]) => (await listHomeGallery({ profile })).items.map((i) => `${i.pinned ? "★" : ""}${i.title}`);

describe("favourites", () => {
  it("a pinned card comes first, the latest pin before older ones; unpinning restores the order", async () => {
    expect(await titles(s.teacher)).toEqual(["Laboratório de Frações", "Mural do 7º A", "Planejador de Aulas"]);
    await setFavourite({ profile: s.teacher, placementId: ids.planner, pinned: true });
    expect(await titles(s.teacher)).toEqual(["★Planejador de Aulas", "Laboratório de Frações", "Mural do 7º A"]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await setFavourite({ profile: s.teacher, placementId: ids.mural, pinned: true });
    await setFavourite({ profile: s.teacher, placementId: ids.mural, pinned: true }); // twice is once
    expect(await titles(s.teacher)).toEqual(["★Mural do 7º A", "★Planejador de Aulas", "Laboratório de Frações"]);
    await setFavourite({ profile: s.teacher, placementId: ids.mural, pinned: false });
    await setFavourite({ profile: s.teacher, placementId: ids.planner, pinned: false });
    expect(await titles(s.teacher)).toEqual(["Laboratório de Frações", "Mural do 7º A", "Planejador de Aulas"]);
  });

  it("pins are per profile, and only a card the profile may open can be pinned", async () => {
    await setFavourite({ profile: s.teacher, placementId: ids.fracoes, pinned: true });
    expect((await listHomeGallery({ profile: s.student })).items.every((i) => !i.pinned)).toBe(true);
    await expect(setFavourite({ profile: s.student, placementId: ids.planner, pinned: true })).rejects.toMatchObject({ code: "not_found" });
    await expect(setFavourite({ profile: s.student, placementId: ids.other, pinned: true })).rejects.toMatchObject({ code: "not_found" });
    await expect(setFavourite({ profile: s.student, placementId: "nope", pinned: true })).rejects.toMatchObject({ code: "not_found" });
    await setFavourite({ profile: s.teacher, placementId: ids.fracoes, pinned: false });
  });
});

describe("used recently", () => {
  it("lists the tools the profile launched, newest first, from the launch log; none while searching", async () => {
    const log = (toolId: string, minutesAgo: number, profileId = s.teacher.id) =>
      db().dataAccessLog.create({ data: { channel: "lti_launch", toolId, institutionId: s.schoolId, profileId, status: 200, createdAt: new Date(Date.now() - minutesAgo * 60_000) } });
    await log(ids.fracoesTool, 30);
    await log(ids.plannerTool, 10);
    await log(ids.fracoesTool, 60 * 24 * 40); // older than 30 days: ignored, the newer launch counts
    await log(ids.plannerTool, 1, s.student.id); // another profile's launch
    expect((await listHomeGallery({ profile: s.teacher })).recent.map((i) => i.title)).toEqual(["Planejador de Aulas", "Laboratório de Frações"]);
    expect((await listHomeGallery({ profile: s.student })).recent).toEqual([]); // the planner is not in the student's gallery
    expect((await listHomeGallery({ profile: s.teacher, search: "planejador" })).recent).toEqual([]);
  });
});

describe("a teacher's class page", () => {
  it("lists the teacher's classes and the class's tools with the link to share; others get null", async () => {
    expect(await listTeacherClasses({ profileId: s.teacher.id })).toEqual([{ id: s.classId, name: "7º ano A", periodCode: expect.any(String), subjects: [expect.any(String)] }]);
    const page = await getTeacherClass({ profile: s.teacher, classId: s.classId });
    expect(page?.class).toMatchObject({ id: s.classId, name: "7º ano A", students: 1 });
    expect(page?.tools.map((t) => [t.title, t.usable, t.shareUrl.endsWith(`/launch/${t.placementId}`)])).toEqual([
      ["Mural do 7º A", true, true],
      ["Quiz dos Alunos", false, true],
    ]);
    expect(await getTeacherClass({ profile: s.student, classId: s.classId })).toBeNull();
    expect(await getTeacherClass({ profile: s.outsider, classId: s.classId })).toBeNull();
    expect(await getTeacherClass({ profile: s.teacher, classId: "x" })).toBeNull();
  });
});
