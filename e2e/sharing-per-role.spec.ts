// Sharing rules per role (issue #14 point 1, docs/decisions/015), as a school sets them: on a
// phone-sized screen, the manager gives a tool and an application "teachers: e-mail shared,
// students: not"; the previews show per role what the partner receives, and the teacher's and the
// student's launches and the Data API deliver exactly that. The test builds its own sub-network
// and school under the demo network, so nothing another test relies on changes.
import type { Locator, Page } from "@playwright/test";
import { addPerson, captureLaunchForm, createUnit, expect, linkEdtechAndPlaceTool, signedIn, signIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";
const TOOL = "Laboratório de Frações";
const EDTECH = "Aprende Mais";
const APP = "Aplicativo de Demonstração";
const API_KEY = "demo-api-key";

/** "Teachers: e-mail shared; students (and everyone else): name only", through the card's form. */
async function teachersEmailOnly(rules: Locator): Promise<void> {
  await rules.getByLabel("Configuração própria").check();
  await rules.getByRole("group", { name: "Nome (nome_usuario)", exact: true }).getByLabel("Compartilhado", { exact: true }).check();
  await rules.getByRole("group", { name: "E-mail (email_usuario)", exact: true }).getByLabel("Não compartilhado", { exact: true }).check();
  await rules.getByRole("group", { name: "Para o perfil Professor(a)" }).getByLabel("Regra própria para Professor(a)").check();
  await rules.getByRole("group", { name: "Professor(a) · Nome (nome_usuario)" }).getByLabel("Compartilhado", { exact: true }).check();
  await rules.getByRole("group", { name: "Professor(a) · E-mail (email_usuario)" }).getByLabel("Compartilhado", { exact: true }).check();
  // The other attributes (an application's card shows them, prefilled from the inherited rule): not shared.
  for (const label of ["Data de nascimento (idade)", "CPF (cpf)", "Celular (telefone)"]) {
    for (const name of [label, `Professor(a) · ${label}`]) {
      const group = rules.getByRole("group", { name, exact: true });
      if (await group.count()) await group.getByLabel("Não compartilhado", { exact: true }).check();
    }
  }
  await rules.getByRole("button", { name: "Salvar regras" }).click();
  await expect(rules.getByRole("status")).toContainText("Regras de compartilhamento salvas");
}

const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test("teachers' e-mail shared, students' not: the preview per role, the launches and the Data API agree", async ({ page, browser }) => {
  // Three people's pages, two rules and the Data API in one test: 52–56 s alone on this 2-core
  // machine (2026-11-27), too near the default 60 s when other suites share it.
  test.setTimeout(120_000);
  const tag = `${Date.now() % 1_000_000}`;
  const network = `Rede Por Perfil ${tag}`;
  const school = `EMEF Por Perfil ${tag}`;
  const teacher = { name: `Paula Professora ${tag}`, email: `paula.${tag}@demo.hub.br` };
  const student = { name: `Caio Aluno ${tag}`, email: `caio.${tag}@demo.hub.br` };
  const password = "senha-por-perfil-123";

  await page.setViewportSize({ width: 375, height: 800 });
  await signedIn(page, MANAGER);
  const networkId = await createUnit(page, network, "network", "Rede Municipal de Vila Esperança");
  const schoolId = await createUnit(page, school, "school", `— ${network}`);

  await linkEdtechAndPlaceTool(page, { networkId, schoolId, edtech: EDTECH, tool: TOOL });
  await addPerson(page, schoolId, { ...student, role: "aluno", password });
  await addPerson(page, schoolId, { ...teacher, role: "professor", password });

  // The tool: the rule on a phone-sized screen.
  await page.goto(`/gestao/${schoolId}/ferramentas`);
  const toolRules = page.getByRole("form", { name: `Regras de ${TOOL}` });
  await teachersEmailOnly(toolRules);
  expect(await fitsTheScreen(page)).toBe(true);
  await expect(page.locator("li", { has: toolRules }).getByText("Regra própria para: Professor(a)")).toBeVisible();

  const toolId = (await page.locator("li", { has: toolRules }).locator('[data-testid^="tool-status-"]').getAttribute("data-testid"))!.slice("tool-status-".length);
  await page.goto(`/gestao/${schoolId}/ferramentas?ferramenta=${toolId}`);
  const toolPreview = async (role: string) => JSON.parse(await page.getByTestId(`preview-launch-${role}`).innerText()) as Record<string, string>;
  const teacherPreview = await toolPreview("professor");
  const studentPreview = await toolPreview("aluno");
  expect(teacherPreview).toMatchObject({ lis_person_name_full: teacher.name, lis_person_contact_email_primary: teacher.email });
  expect(studentPreview).toMatchObject({ lis_person_name_full: student.name });
  expect(studentPreview).not.toHaveProperty("lis_person_contact_email_primary");

  // Each one's next launch carries exactly what the preview showed for their role.
  for (const [who, shown] of [[teacher, teacherPreview], [student, studentPreview]] as const) {
    const context = await browser.newContext();
    const own = await context.newPage();
    await signIn(own, who.email, password);
    const href = (await own.getByRole("link", { name: `Abrir ${TOOL}` }).getAttribute("href"))!;
    const { fields } = await captureLaunchForm(own.request, href);
    expect(Object.fromEntries(fields.filter(([name]) => name.startsWith("lis_person_")))).toEqual(shown);
    await context.close();
  }

  // The application: the same rule; its preview per role and the Data API agree.
  await page.goto(`/gestao/${schoolId}/aplicativos`);
  const appRules = page.getByRole("form", { name: `Regras de ${APP}` });
  await teachersEmailOnly(appRules);
  expect(await fitsTheScreen(page)).toBe(true);
  const appId = (await page.locator("li", { has: appRules }).locator('[data-testid^="status-"]').getAttribute("data-testid"))!.slice("status-".length);
  await page.goto(`/gestao/${schoolId}/aplicativos?app=${appId}`);
  const appPreview = async (role: string) => JSON.parse(await page.getByTestId(`preview-api-${role}`).innerText()) as Record<string, unknown>;
  expect(await appPreview("professor")).toMatchObject({ perfil: "professor", nome_usuario: teacher.name, email_usuario: teacher.email });
  const studentRecord = await appPreview("aluno");
  expect(studentRecord).toMatchObject({ perfil: "aluno", nome_usuario: student.name });
  expect(studentRecord).not.toHaveProperty("email_usuario");

  const api = await page.request.get(`/manager/v1/data/${schoolId}?only=usuario`, { headers: { "x-api-key": API_KEY } });
  expect(api.status()).toBe(200);
  const text = await api.text();
  const body = JSON.parse(text) as {
    configuracao: { conjuntoDadosUsuario: { atributosPermitidos: string[]; porPerfil?: Record<string, { atributosPermitidos: string[] }> } };
    dados: { usuario: { registro: Record<string, unknown> }[] };
  };
  const record = (name: string) => body.dados.usuario.filter((e) => e.registro.nome_usuario === name).at(-1)?.registro;
  expect(record(teacher.name)).toMatchObject({ email_usuario: teacher.email });
  expect(record(student.name)).toBeDefined();
  expect(record(student.name)).not.toHaveProperty("email_usuario");
  expect(text).not.toContain(student.email);
  expect(body.configuracao.conjuntoDadosUsuario.porPerfil?.professor?.atributosPermitidos).toEqual(["nome_usuario", "email_usuario"]);
  expect(body.configuracao.conjuntoDadosUsuario.porPerfil?.aluno?.atributosPermitidos).toEqual(["nome_usuario"]);

  // The history names the override, before → after.
  await page.goto(`/gestao/${schoolId}/acessos/regras`);
  await expect(page.getByText("Professor(a) · Compartilhados:").first()).toBeVisible();
});
