// Privacy issue (#14), one rule engine for every channel, as a school sees it: a manager chooses
// in /gestao that a tool does not receive names, and the next launch carries no lis_person_name_*;
// then the edtech's link is removed, and the launch answers a clear refusal, never a signed form.
// The test builds its own corner of the demo (a sub-network, a school under it, a student, the
// Aprende Mais tool placed there and linked at the sub-network), so nothing another test relies on
// changes.
import { addPerson, captureLaunchForm, createUnit, expect, linkEdtechAndPlaceTool, signedIn, signIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";
const TOOL = "Laboratório de Frações";
const EDTECH = "Aprende Mais";

test("a school stops a tool receiving names, then the link removal stops its launches", async ({ page, browser }) => {
  const tag = `${Date.now() % 1_000_000}`;
  const network = `Rede Privacidade ${tag}`;
  const school = `EMEF Privacidade ${tag}`;
  const email = `privacidade.${tag}@demo.hub.br`;
  const password = "senha-da-bruna-123";

  await signedIn(page, MANAGER);
  const networkId = await createUnit(page, network, "network", "Rede Municipal de Vila Esperança");
  const schoolId = await createUnit(page, school, "school", `— ${network}`);

  // The contract with the tool's edtech at the sub-network, the tool for the whole school, and a
  // student who can sign in.
  await linkEdtechAndPlaceTool(page, { networkId, schoolId, edtech: EDTECH, tool: TOOL });
  await addPerson(page, schoolId, { name: `Bruna Privacidade ${tag}`, role: "aluno", email, password });

  // Name: not shared; e-mail: shared.
  await page.goto(`/gestao/${schoolId}/ferramentas`);
  const rules = page.getByRole("form", { name: `Regras de ${TOOL}` });
  await expect(page.locator("li", { has: rules }).getByText("Sem regra: a ferramenta não recebe nenhum dado pessoal")).toBeVisible();
  await rules.getByLabel("Configuração própria").check();
  await rules.getByRole("group", { name: "Nome (nome_usuario)" }).getByLabel("Não compartilhado", { exact: true }).check();
  await rules.getByRole("group", { name: "E-mail (email_usuario)" }).getByLabel("Compartilhado", { exact: true }).check();
  await rules.getByRole("button", { name: "Salvar regras" }).click();
  await expect(rules.getByRole("status")).toContainText("Regras de compartilhamento salvas");

  // The preview shows exactly the personal fields of the launch below.
  const toolId = (await page.locator("li", { has: rules }).locator('[data-testid^="tool-status-"]').getAttribute("data-testid"))!.slice("tool-status-".length);
  await page.goto(`/gestao/${schoolId}/ferramentas?ferramenta=${toolId}`);
  const preview = JSON.parse(await page.getByTestId("preview-launch").innerText()) as Record<string, string>;
  expect(preview).toEqual({ lis_person_contact_email_primary: email });

  // The student's next launch: no lis_person_name_*, the e-mail as shared.
  const student = await browser.newContext();
  const studentPage = await student.newPage();
  await signIn(studentPage, email, password);
  const href = (await studentPage.getByRole("link", { name: `Abrir ${TOOL}` }).getAttribute("href"))!;
  expect(href).toMatch(/^\/launch\/[0-9a-f-]{36}$/);
  const { fields } = await captureLaunchForm(studentPage.request, href);
  expect(fields.filter(([name]) => name.startsWith("lis_person_name"))).toEqual([]);
  expect(fields.filter(([name]) => name.startsWith("lis_person_"))).toEqual(Object.entries(preview));
  expect(fields.map(([, value]) => value)).not.toContain(`Bruna Privacidade ${tag}`);

  // The sub-network removes the edtech's link: the very next launch is refused.
  await page.goto(`/gestao/${networkId}/aplicativos`);
  await page.getByRole("button", { name: `Desvincular ${EDTECH}` }).click();
  await page.getByRole("button", { name: "Confirmar: desvincular" }).click();
  // Not the "Desvincular" button's absence: it is already gone while the confirmation is asked.
  // The edtech is offered for linking again only once the unlink is saved and the page re-rendered.
  const link = page.getByRole("form", { name: "Vincular edtech" });
  await expect(link.getByLabel("Edtech").locator("option", { hasText: EDTECH })).toHaveCount(1);

  const refused = await studentPage.request.get(href);
  expect(refused.status()).toBe(403);
  const body = await refused.text();
  expect(body).toContain("A escola não compartilha mais dados com este parceiro.");
  expect(body).not.toContain("oauth_signature");
  expect(body).not.toContain("<form");
  const shown = await studentPage.goto(href);
  expect(shown?.status()).toBe(403);
  await expect(studentPage.getByRole("heading", { name: "Acesso à ferramenta suspenso" })).toBeVisible();
  await expect(studentPage).toHaveURL(new RegExp(`${href}$`));
  await student.close();
});
