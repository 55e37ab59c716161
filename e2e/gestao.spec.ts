// The manager area (/gestao) as gestor@demo.hub.br, the network manager of the demo: school data
// through the UI becomes exactly the Data API's events; sharing rules change the API and the
// preview alike; a school manager cannot reach another school, through pages, routes or actions.
// Each test finds or creates what it needs, so the tests run in any order and beside the others.
import type { Browser, Page } from "@playwright/test";
import { expect, hubNow, signedIn, signIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";
const API_KEY = "demo-api-key";
const STUDENT = "Pedro Henrique Lima";

interface DataEvent {
  id: string;
  evento: string;
  ocorridoEm: string;
  registro: Record<string, unknown>;
}
interface DataBody {
  configuracao: { conjuntoDadosUsuario: { atributosPermitidos: string[]; atributosAnonimizados: string[] } };
  dados: Record<string, DataEvent[]>;
}

async function dataApi(page: Page, orgId: string, query: Record<string, string>): Promise<DataBody> {
  const response = await page.request.get(`/manager/v1/data/${orgId}?${new URLSearchParams(query)}`, { headers: { "x-api-key": API_KEY } });
  expect(response.status()).toBe(200);
  return (await response.json()) as DataBody;
}

const idFromUrl = (url: string, after: string) => new URL(url).pathname.split("/")[new URL(url).pathname.split("/").indexOf(after) + 1]!;

async function schoolIds(page: Page): Promise<{ school1: string; school2: string }> {
  await page.goto("/gestao");
  const tree = page.getByRole("list", { name: "Instituições sob sua gestão" });
  const href = async (name: string) => ((await tree.getByRole("link", { name, exact: true }).getAttribute("href")) ?? "").split("/")[2]!;
  return { school1: await href("EMEF Monteiro Lobato"), school2: await href("EMEF Cecília Meireles") };
}

async function dashboardCounts(page: Page, schoolId: string): Promise<Record<string, number>> {
  await page.goto(`/gestao/${schoolId}/resumo`);
  const counts: Record<string, number> = {};
  for (const key of ["turma-insert", "turmaAluno-insert", "turmaAluno-delete", "usuario-update", "turma-delete"]) {
    counts[key] = Number((await page.getByTestId(`total-${key}`).innerText()).replace(/\D/g, ""));
  }
  return counts;
}

async function profileIdOf(page: Page, schoolId: string, name: string): Promise<string> {
  await page.goto(`/gestao/${schoolId}/pessoas?${new URLSearchParams({ q: name })}`);
  await page.getByRole("link", { name, exact: true }).first().click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  return idFromUrl(page.url(), "pessoas");
}

/** A new application of Edtech Demo with a Data API key, made in the developer area. */
async function newApplicationWithKey(browser: Browser, name: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signedIn(page, "dev@edtech.demo");
  await page.goto("/desenvolvedor/aplicacoes/nova");
  await page.getByLabel("Nome", { exact: true }).fill(name);
  await page.getByLabel(/Endereços de retorno/).fill("https://regras.example/callback");
  await page.getByRole("button", { name: "Criar aplicação" }).click();
  await page.getByRole("link", { name: /Ver a aplicação/ }).click();
  await page.getByRole("button", { name: "Criar chave" }).click();
  const key = await page.getByLabel("Nova chave da API (x-api-key)").inputValue();
  await context.close();
  return key;
}

test("a manager's class life cycle is exactly the Data API's events, in order, and the dashboard counts follow", async ({ page }) => {
  await signedIn(page, MANAGER);
  const { school1 } = await schoolIds(page);
  const before = await dashboardCounts(page, school1);
  const minDate = hubNow();
  const className = `9º ano E2E ${Date.now() % 100_000}`;

  // 1. Create a class.
  await page.goto(`/gestao/${school1}/turmas`);
  const newClass = page.getByRole("form", { name: "Nova turma" });
  await newClass.getByLabel("Nome da turma").fill(className);
  await newClass.getByLabel("Série").fill("9º ano");
  await newClass.getByRole("button", { name: "Criar turma" }).click();
  await expect(newClass.getByRole("status")).toHaveText("Turma criada.");
  await page.getByRole("link", { name: className }).click();
  await expect(page.getByRole("heading", { name: `Turma ${className}` })).toBeVisible();
  const classUrl = page.url();
  const classId = idFromUrl(classUrl, "turmas");

  // 2. Enroll a student.
  await expect(page.getByText("Nenhum aluno matriculado")).toBeVisible();
  await page.getByLabel("Buscar aluno da escola").fill("Pedro Henrique");
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  await page.getByRole("button", { name: `Matricular ${STUDENT}` }).click();
  const students = page.getByRole("table", { name: "Alunos matriculados" });
  await expect(students.getByRole("link", { name: STUDENT })).toBeVisible();

  // 3. Change the student's phone.
  await students.getByRole("link", { name: STUDENT }).click();
  await expect(page.getByRole("heading", { name: STUDENT })).toBeVisible();
  const studentProfileId = idFromUrl(page.url(), "pessoas");
  const personal = page.getByRole("form", { name: "Dados pessoais" });
  await personal.getByLabel("Celular").fill("(11) 97777-1234");
  await personal.getByRole("button", { name: "Salvar dados" }).click();
  await expect(personal.getByRole("status")).toHaveText("Dados atualizados.");
  await expect(personal.getByLabel("Celular")).toHaveValue("11977771234");

  // 4. Remove the enrollment.
  await page.goto(classUrl);
  await page.getByRole("button", { name: `Remover matrícula de ${STUDENT}` }).click();
  await page.getByRole("button", { name: "Confirmar: remover" }).click();
  await expect(page.getByText("Nenhum aluno matriculado")).toBeVisible();

  // The Data API for the demo key: exactly insert, insert, delete, in order, for this class and
  // this student (other tests may write elsewhere in the school meanwhile). The phone update is
  // not among them: telefone is not shared with the demo application at this school, and an
  // update that changed nothing a partner may see is not delivered to it (docs/decisions/016).
  // A read with min_date sees an event about a second after its commit (docs/data-api.md).
  const mine = (r: Record<string, unknown>) => r.id === classId || r.turmaId === classId || r.id === studentProfileId;
  const lifeCycle = async () =>
    Object.entries((await dataApi(page, school1, { min_date: minDate })).dados)
      .flatMap(([entity, list]) => list.map((e) => ({ entity, ...e })))
      .filter((e) => mine(e.registro))
      .sort((a, b) => a.ocorridoEm.localeCompare(b.ocorridoEm));
  let events: Awaited<ReturnType<typeof lifeCycle>> = [];
  await expect.poll(async () => (events = await lifeCycle()).length).toBe(3);
  expect(events.map((e) => `${e.entity}.${e.evento}`)).toEqual(["turma.insert", "turmaAluno.insert", "turmaAluno.delete"]);
  expect(events[0]!.registro).toMatchObject({ id: classId, nome: className, serie: "9º ano", codigoPeriodo: "2026" });
  // alunoId is the demo application's own id of the student (pairwise, decision 014): not the
  // hub's profile id, and the id its user_id filter finds the student's usuario record by.
  expect(events[1]!.registro).toMatchObject({ turmaId: classId });
  const alunoId = String(events[1]!.registro.alunoId);
  expect(alunoId).not.toBe(studentProfileId);
  const student = (await dataApi(page, school1, { user_id: alunoId, only: "usuario" })).dados.usuario ?? [];
  expect(student.length).toBeGreaterThan(0);
  expect(student.every((e) => e.registro.id === alunoId)).toBe(true);
  expect(events[2]!.registro).toEqual(events[1]!.registro);

  // The dashboard counts changed accordingly.
  const after = await dashboardCounts(page, school1);
  expect(after).toEqual({
    "turma-insert": before["turma-insert"]! + 1,
    "turmaAluno-insert": before["turmaAluno-insert"]! + 1,
    "turmaAluno-delete": before["turmaAluno-delete"]! + 1,
    "usuario-update": before["usuario-update"]! + 1,
    "turma-delete": before["turma-delete"]!,
  });
});

test("allowed → anonymized changes the next Data API response, its configuracao and the preview", async ({ page, browser }) => {
  // Its own application, so the demo application's rules stay as the other tests expect them.
  const appName = `Regras E2E ${Date.now() % 1_000_000}`;
  const key = await newApplicationWithKey(browser, appName);
  await signedIn(page, MANAGER);
  const { school1 } = await schoolIds(page);
  const studentProfileId = await profileIdOf(page, school1, STUDENT);
  // The application names the student by its own (pairwise) id, found once by name while the name
  // is shared; it is never the hub's profile id.
  let partnerUserId: string | undefined;
  const read = async (profileId: string) => {
    if (!partnerUserId) {
      const found = async () => {
        const all = await page.request.get(`/manager/v1/data/${school1}?only=usuario`, { headers: { "x-api-key": key } });
        const ids = ((await all.json()) as DataBody).dados.usuario?.filter((e) => e.registro.nome_usuario === STUDENT).map((e) => String(e.registro.id)) ?? [];
        return (partnerUserId = ids.at(-1));
      };
      await expect.poll(found, { message: `${STUDENT} in the new application's feed` }).toMatch(/^[0-9a-f-]{36}$/);
      expect(partnerUserId).not.toBe(profileId);
    }
    const response = await page.request.get(`/manager/v1/data/${school1}?${new URLSearchParams({ user_id: partnerUserId ?? "", only: "usuario" })}`, { headers: { "x-api-key": key } });
    expect(response.status()).toBe(200);
    return (await response.json()) as DataBody;
  };

  await page.goto(`/gestao/${school1}/aplicativos`);
  const rules = page.getByRole("form", { name: `Regras de ${appName}` });
  const rule = (attribute: string, label: string) => rules.getByRole("group", { name: attribute }).getByLabel(label, { exact: true }).check();
  await rules.getByLabel("Configuração própria").check();
  await rule("Nome (nome_usuario)", "Compartilhado");
  await rule("Data de nascimento (idade)", "Compartilhado");
  await rule("E-mail (email_usuario)", "Anonimizado");
  await rules.getByRole("button", { name: "Salvar regras" }).click();
  await expect(rules.getByRole("status")).toContainText("Regras de compartilhamento salvas");
  expect((await read(studentProfileId)).dados.usuario!.at(-1)!.registro.nome_usuario).toBe(STUDENT);

  // A fresh page for each save, so the status seen is this save's.
  await page.goto(`/gestao/${school1}/aplicativos`);
  await rule("Nome (nome_usuario)", "Anonimizado");
  await rules.getByRole("button", { name: "Salvar regras" }).click();
  await expect(rules.getByRole("status")).toContainText("Regras de compartilhamento salvas");

  const api = await read(studentProfileId);
  expect(api.configuracao.conjuntoDadosUsuario).toEqual({ atributosPermitidos: ["nome_usuario", "idade", "email_usuario"], atributosAnonimizados: ["nome_usuario", "email_usuario"] });
  const last = api.dados.usuario!.at(-1)!;
  expect(String(last.registro.nome_usuario)).toMatch(/^Usuário [0-9a-f]{8}$/);

  const appId = (await page.locator("li", { has: rules }).locator('[data-testid^="status-"]').getAttribute("data-testid"))!.slice("status-".length);
  await page.goto(`/gestao/${school1}/aplicativos?app=${appId}&pessoa=${studentProfileId}`);
  const preview = JSON.parse(await page.getByTestId("preview-api").innerText()) as DataBody;
  expect(preview.configuracao).toEqual(api.configuracao);
  expect(preview.dados.usuario).toEqual([last]);

  // And back: the next response carries the name again.
  await page.goto(`/gestao/${school1}/aplicativos`);
  await rule("Nome (nome_usuario)", "Compartilhado");
  await rules.getByRole("button", { name: "Salvar regras" }).click();
  await expect(rules.getByRole("status")).toContainText("Regras de compartilhamento salvas");
  expect((await read(studentProfileId)).dados.usuario!.at(-1)!.registro.nome_usuario).toBe(STUDENT);
});

test("a school-1 manager cannot see or change school 2: pages, the import route and server actions", async ({ page, baseURL }) => {
  await signedIn(page, MANAGER);
  const { school1, school2 } = await schoolIds(page);
  await page.goto(`/gestao/${school2}/turmas`);
  const school2ClassHref = (await page.getByRole("table", { name: "Turmas" }).getByRole("link").first().getAttribute("href"))!;
  const school2ClassId = school2ClassHref.split("/").at(-1)!;

  // The network manager creates a manager for school 1 (with a password to sign in).
  const email = `gestao.monteiro.${Date.now()}@demo.hub.br`;
  await page.goto(`/gestao/${school1}/pessoas`);
  const form = page.getByRole("form", { name: "Cadastrar pessoa" });
  await form.getByLabel("Nome completo").fill("Marta Gestora Escolar");
  await form.getByLabel("Perfil").selectOption("gestor");
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Senha inicial").fill("senha-da-marta-123");
  await form.getByRole("button", { name: "Cadastrar" }).click();
  await expect(form.getByRole("status")).toHaveText("Pessoa cadastrada.");

  await page.context().clearCookies();
  await signIn(page, email, "senha-da-marta-123");
  await page.goto("/gestao");
  await expect(page.getByRole("heading", { level: 1, name: "EMEF Monteiro Lobato" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name: "EMEF Cecília Meireles" })).toHaveCount(0);

  for (const path of [`/gestao/${school2}`, `/gestao/${school2}/pessoas`, `/gestao/${school2}/turmas/${school2ClassId}`, `/gestao/${school1}/turmas/${school2ClassId}`, `/gestao/${school2}/aplicativos`, `/gestao/${school2}/ferramentas`, `/gestao/${school2}/resumo`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  expect((await page.goto(`/gestao/${school1}/turmas`))?.status()).toBe(200);

  const imported = await page.request.post(`/gestao/${school2}/importar/executar?tipo=disciplinas`, { data: "nome\nInvasão", headers: { "content-type": "text/csv", origin: baseURL! } });
  expect(imported.status()).toBe(404);

  // A server action of a school-1 page, replayed with school 2's class id, is refused: the
  // request leaves the browser with school 1's id and is rewritten on the way (same length).
  await page.getByRole("table", { name: "Turmas" }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: /^Turma / })).toBeVisible();
  const school1ClassId = page.url().split("/").at(-1)!;
  let rewritten = 0;
  await page.route(`**/gestao/${school1}/turmas/${school1ClassId}`, async (route) => {
    const body = route.request().postData();
    if (route.request().method() !== "POST" || !body?.includes(school1ClassId)) return route.continue();
    rewritten++;
    await route.continue({ postData: body.replaceAll(school1ClassId, school2ClassId) });
  });
  await page.getByRole("button", { name: "Excluir turma" }).click();
  await page.getByRole("button", { name: "Confirmar: excluir turma" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Turma não encontrada." })).toBeVisible();
  expect(rewritten).toBe(1);
  await page.unrouteAll();
  expect((await page.goto(`/gestao/${school1}/turmas/${school1ClassId}`))?.status()).toBe(200);

  // School 2's class is still there for the network manager.
  await page.context().clearCookies();
  await signedIn(page, MANAGER);
  expect((await page.goto(school2ClassHref))?.status()).toBe(200);
});

test("CSV import: a file with bad rows imports nothing and lists each; a good file imports fully", async ({ page }) => {
  await signedIn(page, MANAGER);
  const { school2 } = await schoolIds(page);
  await page.goto(`/gestao/${school2}/importar`);
  const kind = page.getByLabel("Tipo de arquivo");
  const file = page.getByLabel("Arquivo CSV", { exact: true });

  await kind.selectOption("pessoas");
  const bad = ["nome;perfil;email;turma;periodo", "Ana Importada;aluno;ana.importada@demo.hub.br;7º ano A;2026", "X;aluno;nao-e-email;;", "Bia Importada;aluna;;;", "Caio Importado;aluno;;Turma Z;2026"].join("\n");
  await file.setInputFiles({ name: "pessoas.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await page.getByRole("button", { name: "Importar" }).click();
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("Nada foi importado. 3 de 4 linhas têm problemas");
  const rows = alert.getByRole("table", { name: "Linhas com problemas" }).getByRole("row");
  await expect(rows).toHaveText([/Linha\s*Problemas/, /3\s*Nome: ao menos 2 letras; E-mail inválido/, /4\s*Perfil: use aluno/, /5\s*Turma "Turma Z" não encontrada no período 2026/]);
  await page.goto(`/gestao/${school2}/pessoas?q=Ana+Importada`);
  await expect(page.getByText("Ninguém encontrado com esses filtros.")).toBeVisible();

  const since = hubNow();
  await page.goto(`/gestao/${school2}/importar`);
  await kind.selectOption("pessoas");
  const good = ["nome;perfil;email;telefone;nascimento;turma;periodo", ...Array.from({ length: 1500 }, (_, i) => `Aluno Planilha ${i};aluno;planilha${i}@demo.hub.br;(11) 98${String(1_000_000 + i).slice(-7)};15/03/2014;7º ano A;2026`)].join("\r\n");
  await file.setInputFiles({ name: "pessoas.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
  await page.getByRole("button", { name: "Verificar arquivo" }).click();
  await expect(page.getByRole("status")).toContainText("Arquivo válido: 1.500 linhas prontas para importar");
  await page.getByRole("button", { name: "Importar" }).click();
  await expect(page.getByRole("status")).toContainText("Importação concluída: 1.500 linhas importadas.", { timeout: 60_000 });

  let body = await dataApi(page, school2, { min_date: since, limit: "10000" });
  await expect.poll(async () => Object.values((body = await dataApi(page, school2, { min_date: since, limit: "10000" })).dados).flat().length).toBe(3000);
  expect(body.dados.usuario!.filter((e) => e.evento === "insert")).toHaveLength(1500);
  expect(body.dados.turmaAluno!.filter((e) => e.evento === "insert")).toHaveLength(1500);
  expect(Object.values(body.dados).flat()).toHaveLength(3000);
});
