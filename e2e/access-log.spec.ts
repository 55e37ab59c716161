// The institution owns its access log (privacy issue #14, point 5), through the served hub: an
// edtech deletes its application in the developer area, and the manager of the school it read
// still sees those reads on /gestao/.../acessos, under the application's name and marked deleted,
// and the history of the sharing rules it had.
import { expect, signedIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";
const DEVELOPER = "dev@edtech.demo";

test("an application deleted by its edtech leaves its reads and its rule changes in the manager's log", async ({ page, browser }) => {
  const appName = `Efêmera E2E ${Date.now() % 1_000_000}`;

  // The developer creates the application and a Data API key.
  const dev = await (await browser.newContext()).newPage();
  await signedIn(dev, DEVELOPER);
  await dev.goto("/desenvolvedor/aplicacoes/nova");
  await dev.getByLabel("Nome", { exact: true }).fill(appName);
  await dev.getByLabel(/Endereços de retorno/).fill("https://efemera.example/callback");
  await dev.getByRole("button", { name: "Criar aplicação" }).click();
  await dev.getByRole("link", { name: /Ver a aplicação/ }).click();
  await expect(dev).toHaveURL(/\/desenvolvedor\/aplicacoes\/[0-9a-f-]{36}$/);
  const applicationUrl = dev.url();
  await dev.getByRole("button", { name: "Criar chave" }).click();
  const key = await dev.getByLabel("Nova chave da API (x-api-key)").inputValue();

  // The manager lets it read names at school 1; it reads.
  await signedIn(page, MANAGER);
  await page.goto("/gestao");
  const tree = page.getByRole("list", { name: "Instituições sob sua gestão" });
  const school1 = ((await tree.getByRole("link", { name: "EMEF Monteiro Lobato", exact: true }).getAttribute("href")) ?? "").split("/")[2]!;
  await page.goto(`/gestao/${school1}/aplicativos`);
  const rules = page.getByRole("form", { name: `Regras de ${appName}` });
  await rules.getByLabel("Configuração própria").check();
  await rules.getByRole("group", { name: "Nome (nome_usuario)" }).getByLabel("Compartilhado", { exact: true }).check();
  await rules.getByRole("button", { name: "Salvar regras" }).click();
  await expect(rules.getByRole("status")).toContainText("Regras de compartilhamento salvas");
  const read = await page.request.get(`/manager/v1/data/${school1}?only=usuario&limit=5`, { headers: { "x-api-key": key } });
  expect(read.status()).toBe(200);

  // The developer deletes the application.
  await dev.goto(applicationUrl);
  const remove = dev.getByRole("form", { name: "Excluir aplicação" });
  await remove.getByLabel(`Digite "${appName}" para confirmar`).fill(appName);
  await remove.getByRole("button", { name: "Excluir aplicação" }).click();
  await expect(dev).toHaveURL(/\/desenvolvedor\?excluida=1/);
  await dev.context().close();

  // The manager still sees the read, under the name it had, marked deleted; the filter finds it.
  await page.goto(`/gestao/${school1}/acessos`);
  const partner = page.getByLabel("Parceiro");
  await expect(partner.getByRole("option", { name: `${appName} (aplicação excluída)` })).toHaveCount(1);
  await partner.selectOption({ label: `${appName} (aplicação excluída)` });
  await page.getByLabel("Canal").selectOption({ label: "API de dados" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/parceiro=excluida/);
  const log = page.getByRole("table", { name: "Acessos aos dados" });
  await expect(log.getByRole("row")).toHaveCount(2); // header + the read
  const row = log.getByRole("row").nth(1);
  await expect(row).toContainText(appName);
  await expect(row).toContainText("(aplicação excluída)");
  await expect(row).toContainText("API de dados");
  await expect(row).toContainText("Nome (nome_usuario)");
  await expect(row).toContainText("Concedido");

  // And the history of its sharing rules: who, the partner, before → after.
  await page.getByRole("link", { name: "Mudanças nas regras" }).click();
  await expect(page.getByRole("heading", { name: "Mudanças nas regras de compartilhamento" })).toBeVisible();
  await page.getByLabel("Parceiro").selectOption({ label: `${appName} (aplicação excluída)` });
  await page.getByRole("button", { name: "Filtrar" }).click();
  const history = page.getByRole("table", { name: "Mudanças nas regras de compartilhamento" });
  await expect(history.getByRole("row")).toHaveCount(2);
  const change = history.getByRole("row").nth(1);
  await expect(change).toContainText(appName);
  await expect(change).toContainText("(aplicação excluída)");
  await expect(change.getByRole("cell").nth(4)).toContainText("Sem regra própria");
  await expect(change.getByRole("cell").nth(5)).toContainText("Compartilhados: Nome (nome_usuario)");
});
