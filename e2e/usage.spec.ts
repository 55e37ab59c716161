// Usage for managers (issue #19) in the browser: a launch shows in the network's usage page, the
// charts are there, and the CSV link answers the same numbers. Counts are compared before and
// after this test's own launch, since other tests launch tools at the same schools.
import type { Page } from "@playwright/test";
import { expect, shot, signedIn, signIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";

async function networkUsage(page: Page): Promise<{ networkId: string; launches: number }> {
  await page.goto("/gestao");
  const href = await page.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name: "Rede Municipal de Vila Esperança", exact: true }).getAttribute("href");
  const networkId = href!.split("/")[2]!;
  await page.goto(`/gestao/${networkId}/uso`);
  await expect(page.getByRole("heading", { name: "Uso das ferramentas" })).toBeVisible();
  return { networkId, launches: Number((await page.getByTestId("launch-total").innerText()).replace(/\D/g, "")) };
}

test("a student's launch shows in the network's usage charts and CSV", async ({ page, browser }) => {
  await signedIn(page, MANAGER);
  const before = await networkUsage(page);

  const context = await browser.newContext();
  const student = await context.newPage();
  await signIn(student, "aluno@demo.hub.br");
  const open = student.getByRole("link", { name: "Abrir Ferramenta de Demonstração" }).first();
  const launch = await student.request.get((await open.getAttribute("href"))!);
  expect(launch.status()).toBe(200);
  await context.close();

  // The launch log is written in batches of a few milliseconds: the page shows it at the next look.
  await expect(async () => {
    expect((await networkUsage(page)).launches).toBeGreaterThan(before.launches);
  }).toPass({ timeout: 10_000 });
  const byTool = page.getByTestId("launches-by-tool");
  await expect(byTool.getByRole("rowheader", { name: "Ferramenta de Demonstração" })).toBeVisible();
  await expect(page.getByTestId("launches-by-role").getByRole("rowheader", { name: "Aluno(a)" })).toBeVisible();
  await expect(page.getByTestId("launches-by-school").getByRole("rowheader", { name: "EMEF Monteiro Lobato" })).toBeVisible();
  await expect(page.getByTestId("sign-ins-by-role").getByRole("rowheader", { name: "Aluno(a)" })).toBeVisible();
  await shot(page, "usage-charts");

  const csvHref = await page.getByRole("link", { name: "Baixar CSV" }).getAttribute("href");
  const csv = await page.request.get(csvHref!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trimEnd().split("\r\n");
  expect(lines[0]).toBe("tipo,dia,instituicao_id,instituicao,ferramenta_id,ferramenta,perfil,quantidade,forma_de_entrada");
  // quantidade is the last column but one (forma_de_entrada closes the line): counted from the end,
  // a quoted name with a comma cannot shift it.
  const launches = lines.slice(1).filter((l) => l.startsWith("lancamento,")).reduce((n, l) => n + Number(l.split(",").at(-2)), 0);
  // At least what the page showed: another test may launch between the two reads.
  expect(launches).toBeGreaterThanOrEqual(Number((await page.getByTestId("launch-total").innerText()).replace(/\D/g, "")));
  expect(lines.some((l) => l.startsWith("entrada,") && l.includes(",EMEF Monteiro Lobato,,,aluno,"))).toBe(true);
});
