// "Meus dados" (privacy issue #14, point 6), through the served hub: Ana (teacher at one school,
// guardian of Lucas at the other) opens the page on a phone, sees which partners receive which of
// her and her son's attributes and the reads the test caused first (a Data API read of Lucas's
// school, a launch of hers), and downloads the export, which holds her data and none of Lucas's.
// The test only reads the demo: it changes nothing other tests rely on.
import { readFile } from "node:fs/promises";
import type { Locator } from "@playwright/test";
import { captureLaunchForm, expect, signedIn, signIn, test } from "./fixtures";

const ANA = "ana.souza@demo.hub.br";
const MANAGER = "gestor@demo.hub.br";
const API_KEY = "demo-api-key";
const DEMO_APP = "Aplicativo de Demonstração";
const DEMO_TOOL = "Ferramenta de Demonstração";

test("anonymous visitors are sent to sign in, for the page and the export", async ({ request }) => {
  for (const path of ["/meus-dados", "/meus-dados/exportar"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect([303, 307], path).toContain(response.status());
    const location = new URL(response.headers()["location"]!, "http://hub.invalid");
    expect(location.pathname, path).toBe("/login");
    expect(location.searchParams.get("callbackUrl"), path).toBe(path);
    expect(await response.text(), path).not.toContain('"pessoa"');
  }
});

/** The partner's entry in a profile's list of partners. */
const partnerIn = (list: Locator, name: string) => list.getByRole("listitem").filter({ hasText: new RegExp(`^${name} ·`) }).first();

test("a guardian sees the partners and reads for herself and her child, and exports only her own data", async ({ page, browser, baseURL }) => {
  // Lucas's school, his CPF and e-mail, as the network's manager sees them.
  const manager = await (await browser.newContext()).newPage();
  await signedIn(manager, MANAGER);
  await manager.goto("/gestao");
  const school2Href = await manager.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name: "EMEF Cecília Meireles", exact: true }).getAttribute("href");
  const school2 = school2Href!.split("/")[2]!;
  await manager.goto(`/gestao/${school2}/pessoas?${new URLSearchParams({ q: "Lucas Souza" })}`);
  const lucasRow = manager.getByRole("table", { name: "Pessoas da instituição" }).getByRole("row").filter({ has: manager.getByRole("link", { name: "Lucas Souza", exact: true }) }).first();
  const cells = lucasRow.getByRole("cell");
  const lucasCpf = (await cells.nth(2).innerText()).trim();
  const lucasEmail = (await cells.nth(3).innerText()).trim();
  expect(lucasCpf).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
  expect(lucasEmail).toContain("@");
  await manager.context().close();

  // A partner reads Lucas's school (names are shared there).
  const read = await page.request.get(`/manager/v1/data/${school2}?only=usuario&limit=5`, { headers: { "x-api-key": API_KEY } });
  expect(read.status()).toBe(200);

  // Ana, on a phone, opens the demo tool as teacher (a launch about her), then "Meus dados".
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, ANA);
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  const open = page.getByRole("list", { name: "Ferramentas disponíveis" }).getByRole("link", { name: `Abrir ${DEMO_TOOL}` });
  await captureLaunchForm(page.request, (await open.getAttribute("href"))!);
  await page.getByRole("navigation", { name: "Conta" }).getByRole("link", { name: "Meus dados" }).click();
  await expect(page).toHaveURL(/\/meus-dados$/);
  await expect(page.getByRole("heading", { level: 1, name: "Meus dados" })).toBeVisible();

  // Herself: partners per profile, with the attributes each receives.
  await expect(page.getByRole("heading", { level: 2, name: "Você — Ana Souza" })).toBeVisible();
  const asTeacher = page.getByRole("list", { name: "Parceiros de Professor(a) · EMEF Monteiro Lobato" });
  const teacherTool = partnerIn(asTeacher, DEMO_TOOL);
  await expect(teacherTool).toContainText("Nome (nome_usuario)");
  await expect(teacherTool).toContainText("E-mail (email_usuario): anonimizado");
  await expect(partnerIn(asTeacher, DEMO_APP)).toContainText("Nome (nome_usuario)");
  await expect(page.getByRole("list", { name: "Parceiros de Responsável · EMEF Cecília Meireles" })).toContainText(DEMO_APP);

  // Her son: his school's partners, then the reads of his data.
  await expect(page.getByRole("heading", { level: 2, name: "Lucas Souza (você é mãe)" })).toBeVisible();
  const lucasPartners = page.getByRole("list", { name: "Parceiros de Aluno(a) · EMEF Cecília Meireles" });
  await expect(partnerIn(lucasPartners, DEMO_APP)).toContainText("Nome (nome_usuario)");
  await expect(partnerIn(lucasPartners, DEMO_TOOL)).toBeVisible();
  const lucasReads = page.getByRole("list", { name: "Leituras recentes de dados de Lucas Souza" });
  await expect(lucasReads.getByRole("listitem").filter({ hasText: "API de dados" }).filter({ hasText: DEMO_APP }).first()).toContainText("Nome (nome_usuario)");

  // Her reads: the launch she just made and the school read.
  const myReads = page.getByRole("list", { name: "Leituras recentes de seus dados" });
  await expect(myReads.getByRole("listitem").filter({ hasText: "Lançamento LTI" }).filter({ hasText: DEMO_TOOL }).first()).toContainText("lis_person_name_full");
  await expect(myReads.getByRole("listitem").filter({ hasText: "API de dados" }).filter({ hasText: DEMO_APP }).first()).toBeVisible();

  // Usable on a phone: nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // The export: a JSON download with her data and nothing of Lucas's.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Baixar meus dados (JSON)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^meus-dados-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile((await download.path())!, "utf8");
  const data = JSON.parse(text) as {
    pessoa: Record<string, unknown>;
    perfis: { papel: string; instituicao: { nome: string } }[];
    vinculosFamiliares: { relacao: string; parentesco: string | null }[];
    compartilhamento: { parceiros: { nome: string }[] }[];
    acessos: { canal: string; parceiro: { nome: string } }[];
  };
  expect(data.pessoa).toMatchObject({ nome_usuario: "Ana Souza", email_usuario: ANA });
  expect(data.perfis.map((p) => `${p.papel} · ${p.instituicao.nome}`).sort()).toEqual(["professor · EMEF Monteiro Lobato", "responsavel · EMEF Cecília Meireles"]);
  expect(data.vinculosFamiliares).toEqual([expect.objectContaining({ parentesco: "mãe" })]);
  expect(data.compartilhamento.flatMap((c) => c.parceiros.map((p) => p.nome))).toContain(DEMO_TOOL);
  expect(data.acessos.some((a) => a.canal === "lti_launch" && a.parceiro.nome === DEMO_TOOL)).toBe(true);
  for (const value of ["Lucas", lucasEmail, lucasCpf, lucasCpf.replace(/\D/g, "")]) expect(text, value).not.toContain(value);
  expect(text).not.toMatch(/passwordHash|scrypt\$/i);

  // The same route over HTTP: an attachment, never cached.
  const exported = await page.request.get("/meus-dados/exportar", { headers: { origin: baseURL! } });
  expect(exported.status()).toBe(200);
  expect(exported.headers()["content-type"]).toContain("application/json");
  expect(exported.headers()["content-disposition"]).toMatch(/^attachment; filename="meus-dados-[\d-]+\.json"$/);
  expect(exported.headers()["cache-control"]).toBe("no-store");
});
