// The gallery for daily use (issue #19): a teacher pins a tool and finds it first; from "Minhas
// turmas" opens a class page with the tools placed for that class and the link to share. The test
// makes its own class, teacher and class placement at the demo's second school (the first one's
// counts are what gestao.spec's class life cycle measures, while this runs beside it).
import { addPerson, expect, shot, signedIn, signIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";

test("a teacher pins a tool and sees it first; a class page shows that class's tools with a link to share", async ({ page, browser }) => {
  const tag = Date.now() % 1_000_000;
  const className = `5º ano Galeria ${tag}`;
  const placementTitle = `Mural E2E ${tag}`;
  const teacher = { name: `Rita Galeria ${tag}`, role: "professor" as const, email: `rita.galeria.${tag}@teste.br`, password: "senha-da-rita-123" };

  // The manager: a class, a teacher assigned to it, and a tool placed for the class.
  await signedIn(page, MANAGER);
  await page.goto("/gestao");
  const schoolHref = await page.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name: "EMEF Cecília Meireles", exact: true }).getAttribute("href");
  const schoolId = schoolHref!.split("/")[2]!;
  await page.goto(`/gestao/${schoolId}/turmas`);
  const newClass = page.getByRole("form", { name: "Nova turma" });
  await newClass.getByLabel("Nome da turma").fill(className);
  await newClass.getByRole("button", { name: "Criar turma" }).click();
  await expect(newClass.getByRole("status")).toHaveText("Turma criada.");
  await addPerson(page, schoolId, teacher);
  await page.goto(`/gestao/${schoolId}/turmas?${new URLSearchParams({ q: className })}`);
  await page.getByRole("link", { name: className }).click();
  const assign = page.getByRole("form", { name: "Atribuir professor" });
  await assign.getByLabel("Professor(a)").selectOption({ label: teacher.name });
  await assign.getByRole("button", { name: "Atribuir professor" }).click();
  await expect(page.getByRole("table", { name: "Professores por disciplina" }).getByRole("link", { name: teacher.name })).toBeVisible();
  await page.goto(`/gestao/${schoolId}/ferramentas`);
  const place = page.getByRole("form", { name: "Disponibilizar ferramenta" });
  await place.getByRole("combobox", { name: /^Ferramenta/ }).selectOption({ label: "Ferramenta de Demonstração — Edtech Demo" });
  await place.getByLabel("Título no Hub").fill(placementTitle);
  await place.getByLabel("Uma turma").check();
  const classOption = await place.getByRole("combobox", { name: /^Turma/ }).locator("option", { hasText: className }).getAttribute("value");
  await place.getByRole("combobox", { name: /^Turma/ }).selectOption(classOption!);
  await place.getByRole("button", { name: "Disponibilizar" }).click();
  await expect(place.getByRole("status")).toHaveText("Ferramenta disponibilizada.");

  // The teacher: the class's card is last by title; pinned, it comes first, and stays first after a reload.
  const context = await browser.newContext();
  const tp = await context.newPage();
  await signIn(tp, teacher.email, teacher.password);
  await tp.goto("/");
  const cards = tp.getByRole("list", { name: "Ferramentas disponíveis" }).getByRole("listitem");
  await expect(cards.first().getByRole("heading")).not.toHaveText(placementTitle);
  await expect(cards.filter({ hasText: placementTitle })).toHaveCount(1);
  await tp.getByRole("button", { name: `Fixar ${placementTitle}` }).click();
  await expect(tp.getByRole("button", { name: `Desafixar ${placementTitle}` })).toBeVisible();
  await expect(cards.first().getByRole("heading")).toHaveText(placementTitle);
  await tp.reload();
  await expect(cards.first().getByRole("heading")).toHaveText(placementTitle);

  // Her class page, from "Minhas turmas": the class's tool and the link that opens it for the class.
  await tp.getByRole("navigation", { name: "Minhas turmas" }).getByRole("link", { name: new RegExp(`Turma ${className}`) }).click();
  await expect(tp.getByRole("heading", { name: `Turma ${className}` })).toBeVisible();
  const classTools = tp.getByRole("list", { name: "Ferramentas da turma" }).getByRole("listitem");
  await expect(classTools).toHaveCount(1);
  await expect(classTools.getByRole("heading", { name: placementTitle })).toBeVisible();
  await shot(tp, "class-page");
  const shareUrl = await classTools.getByLabel("Link para abrir com a turma").inputValue();
  expect(shareUrl).toMatch(/\/launch\/[0-9a-f-]{36}$/);
  // The link opens the tool's launch for a member of the class (here, the teacher herself).
  const launch = await tp.request.get(new URL(shareUrl).pathname);
  expect(launch.status()).toBe(200);
  expect(await launch.text()).toContain('id="lti-launch"');
  await context.close();
});
