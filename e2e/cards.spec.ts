// Sign-in cards (issue #19): a manager prints a class's cards; one card's address, opened in a
// fresh browser, signs that student in and shows the gallery; after a reprint the old card is
// refused with a page saying so; with the school's networks set, a card from elsewhere is refused.
// The test makes its own school, class and student, so it runs beside the others.
import type { Browser, Page } from "@playwright/test";
import { addPerson, createUnit, expect, shot, signedIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";

/** Prints the class's cards from its page; returns each student's card address from the sheet. */
async function printCards(page: Page, classUrl: string, className: string): Promise<Map<string, string>> {
  await page.goto(classUrl);
  await page.getByRole("button", { name: "Imprimir crachás da turma" }).click();
  await expect(page.getByRole("heading", { name: `Crachás da turma ${className}` })).toBeVisible();
  const cards = page.getByRole("list", { name: "Crachás" }).getByRole("listitem");
  const urls = new Map<string, string>();
  for (const card of await cards.all()) urls.set(await card.locator(".name").innerText(), (await card.getAttribute("data-card-url"))!);
  return urls;
}

/** Opens a card's address in a fresh browser (no session), optionally claiming another address. */
async function openCard(browser: Browser, url: string, headers: Record<string, string> = {}): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ extraHTTPHeaders: headers });
  const page = await context.newPage();
  await page.goto(url);
  return { page, close: () => context.close() };
}

test("a manager prints a class's cards; a card signs its student in; a reprinted or off-network card is refused", async ({ page, browser }) => {
  const tag = Date.now() % 1_000_000;
  const school = `Escola Crachás ${tag}`;
  const className = `1º ano Crachá ${tag}`;
  const student = { name: `Lia Crachá ${tag}`, role: "aluno" as const, email: `lia.cracha.${tag}@teste.br`, password: "senha-da-lia-123" };
  await signedIn(page, MANAGER);
  const schoolId = await createUnit(page, school, "school", "Rede Municipal de Vila Esperança");
  await page.goto(`/gestao/${schoolId}/periodos`);
  const period = page.getByRole("form", { name: "Novo período" });
  await period.getByLabel("Código (ano)").fill("2026");
  await period.getByLabel("Nome").fill("Ano letivo 2026");
  await period.getByLabel("Início").fill("2026-02-01");
  await period.getByLabel("Fim").fill("2026-12-10");
  await period.getByRole("button", { name: "Criar período" }).click();
  await expect(period.getByRole("status")).toHaveText("Período criado.");
  await page.goto(`/gestao/${schoolId}/turmas`);
  const newClass = page.getByRole("form", { name: "Nova turma" });
  await newClass.getByLabel("Nome da turma").fill(className);
  await newClass.getByRole("button", { name: "Criar turma" }).click();
  await expect(newClass.getByRole("status")).toHaveText("Turma criada.");
  await addPerson(page, schoolId, student);
  await page.goto(`/gestao/${schoolId}/turmas`);
  await page.getByRole("link", { name: className }).click();
  await expect(page.getByRole("heading", { name: `Turma ${className}` })).toBeVisible();
  const classUrl = page.url();
  await page.getByLabel("Buscar aluno da escola").fill(student.name);
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  await page.getByRole("button", { name: `Matricular ${student.name}` }).click();
  await expect(page.getByRole("table", { name: "Alunos matriculados" }).getByRole("link", { name: student.name })).toBeVisible();

  // 1. The sheet: one card with the student's name and class, its QR code, and the PDF of the same cards.
  const first = await printCards(page, classUrl, className);
  expect([...first.keys()]).toEqual([student.name]);
  const card = page.getByRole("listitem").filter({ hasText: student.name });
  await expect(card).toContainText(`Turma ${className} · 2026`);
  await expect(card.getByRole("img", { name: `Código QR do crachá de ${student.name}` })).toBeVisible();
  expect(await page.getByRole("link", { name: "Baixar PDF" }).getAttribute("href")).toMatch(/^data:application\/pdf;base64,JVBER/);
  await shot(page, "cards-sheet");
  const firstUrl = first.get(student.name)!;
  expect(firstUrl).toMatch(/\/cracha\/[A-Za-z0-9_-]{43}$/);

  // 2. A fresh browser opens the card: signed in as the student, on the gallery.
  const child = await openCard(browser, firstUrl);
  await expect(child.page).toHaveURL(/\/$/);
  await expect(child.page.getByRole("heading", { name: "Olá, Lia" })).toBeVisible();
  await expect(child.page.getByText(`Aluno(a) · ${school}`)).toBeVisible();
  await expect(child.page.getByRole("heading", { name: "Ferramentas", exact: true })).toBeVisible();
  await child.close();

  // 3. A reprint: the old card is refused with a page that says it was replaced; the new one works.
  const second = await printCards(page, classUrl, className);
  const secondUrl = second.get(student.name)!;
  expect(secondUrl).not.toBe(firstUrl);
  const old = await openCard(browser, firstUrl);
  await expect(old.page.getByRole("heading", { name: "Este crachá foi substituído" })).toBeVisible();
  await expect(old.page.getByRole("link", { name: "Entrar com e-mail ou CPF" })).toBeVisible();
  await old.close();

  // 4. The school accepts cards only from its own network: this browser (127.0.0.1) is outside it,
  //    and claiming an address inside it in X-Forwarded-For changes nothing.
  await page.goto(`/gestao/${schoolId}`);
  const rules = page.getByRole("form", { name: "Regras dos crachás" });
  await rules.getByLabel(/Redes permitidas/).fill("10.20.0.0/16");
  await rules.getByRole("button", { name: "Salvar regras dos crachás" }).click();
  await expect(rules.getByRole("status")).toHaveText("Crachás aceitos só a partir de 1 faixa de rede.");
  const outside = await openCard(browser, secondUrl, { "x-forwarded-for": "10.20.0.5" });
  await expect(outside.page.getByRole("heading", { name: "Crachá aceito só na rede da escola" })).toBeVisible();
  await outside.close();

  // 5. With 127.0.0.0/8 allowed too, the same card signs in.
  await rules.getByLabel(/Redes permitidas/).fill("10.20.0.0/16\n127.0.0.0/8\n::1/128");
  await rules.getByRole("button", { name: "Salvar regras dos crachás" }).click();
  await expect(rules.getByRole("status")).toHaveText("Crachás aceitos só a partir de 3 faixas de rede.");
  const inside = await openCard(browser, secondUrl);
  await expect(inside.page.getByRole("heading", { name: "Olá, Lia" })).toBeVisible();
  await inside.close();
});

test("an unknown card's address is refused with a page that says so", async ({ page }) => {
  await page.goto(`/cracha/${"x".repeat(43)}`);
  await expect(page).toHaveURL(/\/cracha\/recusado\?motivo=desconhecido$/);
  await expect(page.getByRole("heading", { name: "Este crachá não foi reconhecido" })).toBeVisible();
});
