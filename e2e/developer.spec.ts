// The developer area (/desenvolvedor) in Chromium, as dev@edtech.demo (owner of "Edtech Demo" in
// the seed): tools with a logo and a shown-once secret, applications and Data API keys, the
// launch tester against the reference tool and against a lax endpoint, bad input, and what
// another edtech's data looks like from here.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "@playwright/test";
import { expect, png, signIn, test } from "./fixtures";

const DEVELOPER = "dev@edtech.demo";
const TEACHER = "ana.souza@demo.hub.br";

async function fillTool(page: Page, fields: { title: string; launchUrl: string; consumerKey: string }) {
  await page.getByLabel("Título", { exact: true }).fill(fields.title);
  await page.getByLabel("Descrição curta", { exact: true }).fill("Jogos de lógica para o fundamental.");
  await page.getByLabel("Descrição longa", { exact: true }).fill("Desafios de lógica com relatório por turma para o professor.");
  await page.getByLabel("Site", { exact: true }).fill("https://logica.example");
  await page.getByLabel("Endereço de lançamento", { exact: true }).fill(fields.launchUrl);
  await page.getByLabel(/Consumer key/).fill(fields.consumerKey);
}

async function registerTool(page: Page, fields: { title: string; launchUrl: string; consumerKey: string }): Promise<{ toolId: string; secret: string }> {
  await page.goto("/desenvolvedor/ferramentas/nova");
  await fillTool(page, fields);
  await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png() });
  await page.getByRole("button", { name: "Cadastrar ferramenta" }).click();
  await expect(page.getByRole("heading", { name: "Ferramenta cadastrada" })).toBeVisible();
  const secret = await page.getByLabel("Segredo compartilhado (shared secret)").inputValue();
  await page.getByRole("link", { name: "Ver a ferramenta" }).click();
  await expect(page.getByRole("heading", { level: 1, name: fields.title })).toBeVisible();
  const toolId = page.url().split("/").pop() ?? "";
  return { toolId, secret };
}

async function signInAsTeacher(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, TEACHER);
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  await expect(page.getByRole("heading", { name: "Olá, Ana" })).toBeVisible();
  return page;
}

test.describe("developer area", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, DEVELOPER);
  });

  test("registers a tool with a logo, previews its gallery card and sees the secret only once", async ({ page }) => {
    await page.goto("/desenvolvedor/ferramentas/nova");
    await fillTool(page, { title: "Lógica em Jogo", launchUrl: "https://logica.example/lti/launch", consumerKey: "logica-hub" });
    await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png() });
    // The card preview follows the form as it is typed, with the chosen file as the logo.
    const livePreview = page.getByRole("article", { name: "Prévia do cartão: Lógica em Jogo" });
    await expect(livePreview).toContainText("Jogos de lógica para o fundamental.");
    await expect(livePreview.locator("img")).toHaveAttribute("src", /^blob:/);

    await page.getByRole("button", { name: "Cadastrar ferramenta" }).click();
    await expect(page.getByRole("heading", { name: "Ferramenta cadastrada" })).toBeVisible();
    const secret = await page.getByLabel("Segredo compartilhado (shared secret)").inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await expect(page.getByText("o Hub não mostrará este valor novamente")).toBeVisible();

    await page.getByRole("link", { name: "Ver a ferramenta" }).click();
    await expect(page).toHaveURL(/\/desenvolvedor\/ferramentas\/[0-9a-f-]{36}$/);
    const toolUrl = page.url();
    const card = page.getByRole("region", { name: "Como aparece na galeria" }).getByRole("article", { name: "Prévia do cartão: Lógica em Jogo" });
    await expect(card).toContainText("Jogos de lógica para o fundamental.");
    const logo = card.locator("img");
    await expect(logo).toHaveAttribute("src", /^\/assets\/[0-9a-f-]{36}$/);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    expect(await page.content()).not.toContain(secret);

    // Away and back: the secret is gone for good.
    await page.goto("/desenvolvedor");
    await expect(page.getByRole("link", { name: "Lógica em Jogo", exact: true })).toBeVisible();
    expect(await page.content()).not.toContain(secret);
    await page.goto(toolUrl);
    await expect(page.getByText("Guardado criptografado; não é exibido.")).toBeVisible();
    expect(await page.content()).not.toContain(secret);
  });

  test("bad input shows a message next to the field and saves nothing", async ({ page }) => {
    await page.goto("/desenvolvedor/ferramentas/nova");
    await page.getByRole("button", { name: "Cadastrar ferramenta" }).click();
    await expect(page.getByLabel("Título", { exact: true })).toHaveAccessibleDescription(/Informe o título/);
    await expect(page.getByLabel("Descrição curta", { exact: true })).toHaveAccessibleDescription(/Informe a descrição curta/);
    await expect(page.getByLabel("Descrição longa", { exact: true })).toHaveAccessibleDescription(/Informe a descrição longa/);
    await expect(page.getByLabel("Site", { exact: true })).toHaveAccessibleDescription(/Informe o site/);
    await expect(page.getByLabel("Logo", { exact: true })).toHaveAccessibleDescription(/Envie o logo/);
    await expect(page.getByLabel("Endereço de lançamento", { exact: true })).toHaveAccessibleDescription(/Informe o endereço/);
    await expect(page.getByLabel(/Consumer key/)).toHaveAccessibleDescription(/Informe a consumer key/);

    // Every other field right, one thing wrong at a time; what was typed stays in the form.
    await fillTool(page, { title: "Nunca Salva", launchUrl: "http://logica.example/lti", consumerKey: "nunca-salva" });
    await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png() });
    await page.getByRole("button", { name: "Cadastrar ferramenta" }).click();
    await expect(page.getByLabel("Endereço de lançamento", { exact: true })).toHaveAccessibleDescription(/Use https:\/\//);
    await expect(page.getByLabel("Título", { exact: true })).toHaveValue("Nunca Salva");
    await expect(page.getByLabel("Título", { exact: true })).toHaveAttribute("aria-invalid", "false");

    await page.getByLabel("Endereço de lançamento", { exact: true }).fill("https://logica.example/lti");
    await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.concat([png(), Buffer.alloc(300 * 1024)]) });
    await page.getByRole("button", { name: "Cadastrar ferramenta" }).click();
    await expect(page.getByLabel("Logo", { exact: true })).toHaveAccessibleDescription(/o limite é 256 KiB/);

    await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("isto não é uma imagem") });
    await page.getByRole("button", { name: "Cadastrar ferramenta" }).click();
    await expect(page.getByLabel("Logo", { exact: true })).toHaveAccessibleDescription(/Formato não aceito: envie uma imagem PNG, JPEG ou SVG/);

    const svgWithScript = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from(svgWithScript) });
    await page.getByRole("button", { name: "Cadastrar ferramenta" }).click();
    await expect(page.getByLabel("Logo", { exact: true })).toHaveAccessibleDescription(/<script>/);

    await page.goto("/desenvolvedor/aplicacoes/nova");
    await page.getByLabel("Nome", { exact: true }).fill("Nunca Criada");
    await page.getByLabel(/Endereços de retorno/).fill("https://ok.example/cb\nretorno-sem-esquema/cb\nhttps://ok.example/cb2#frag");
    await page.getByRole("button", { name: "Criar aplicação" }).click();
    await expect(page.getByLabel(/Endereços de retorno/)).toHaveAccessibleDescription(/retorno-sem-esquema\/cb: Informe um endereço completo/);
    await page.getByLabel(/Endereços de retorno/).fill("https://ok.example/cb2#frag");
    await page.getByRole("button", { name: "Criar aplicação" }).click();
    await expect(page.getByLabel(/Endereços de retorno/)).toHaveAccessibleDescription(/fragmento/);

    await page.goto("/desenvolvedor");
    await expect(page.getByRole("heading", { name: "Ferramentas" })).toBeVisible();
    await expect(page.getByText("Nunca Salva")).toHaveCount(0);
    await expect(page.getByText("Nunca Criada")).toHaveCount(0);
  });

  test("creates an application and keys; the Data API answers 200, 403 for a new application, 401 once revoked", async ({ page }) => {
    await page.goto("/desenvolvedor/aplicacoes/nova");
    await page.getByLabel("Nome", { exact: true }).fill("Painel E2E");
    await page.getByLabel(/Endereços de retorno/).fill("https://painel.example/callback\nhttp://localhost:4000/callback");
    await page.getByLabel(/Tipo de resposta padrão/).selectOption("code");
    await page.getByRole("button", { name: "Criar aplicação" }).click();
    await expect(page.getByRole("heading", { name: "Aplicação criada" })).toBeVisible();
    await expect(page.getByTestId("client-id")).toHaveText(/^app-[0-9a-f]{24}$/);
    const clientSecret = await page.getByLabel("client_secret").inputValue();
    expect(clientSecret.length).toBeGreaterThanOrEqual(43);
    await page.getByRole("link", { name: /Ver a aplicação/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Painel E2E" })).toBeVisible();
    expect(await page.content()).not.toContain(clientSecret);

    // The network is linked to Edtech Demo; this new application has no access there yet: 403.
    const networkRow = page.locator('tr[data-institution="Rede Municipal de Vila Esperança"]');
    await expect(networkRow).toContainText("Não liberado");
    const networkId = (await networkRow.locator("[data-org-id]").getAttribute("data-org-id")) ?? "";
    expect(networkId).toMatch(/^[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: "Criar chave" }).click();
    const newAppKey = await page.getByLabel("Nova chave da API (x-api-key)").inputValue();
    const forbidden = await page.request.get(`/manager/v1/data/${networkId}`, { headers: { "x-api-key": newAppKey } });
    expect(forbidden.status()).toBe(403);

    // The demo application has access at the network: a key created here reads its data.
    await page.goto("/desenvolvedor");
    await page.getByRole("link", { name: "Aplicativo de Demonstração" }).click();
    await expect(page.locator('tr[data-institution="Rede Municipal de Vila Esperança"]')).toContainText("Liberado");
    await page.getByLabel("Nome da chave (opcional)").fill("Chave E2E");
    await page.getByRole("button", { name: "Criar chave" }).click();
    const key = await page.getByLabel("Nova chave da API (x-api-key)").inputValue();
    expect(key).toMatch(/^hub_[0-9a-f]{8}_/);
    const ok = await page.request.get(`/manager/v1/data/${networkId}`, { headers: { "x-api-key": key } });
    expect(ok.status()).toBe(200);
    expect(await ok.json()).toHaveProperty("configuracao.conjuntoDadosUsuario");

    // Listed by prefix with its use; the key itself is never shown again.
    await page.reload();
    const row = page.locator(`tr[data-key-prefix="${key.slice(0, 12)}"]`);
    await expect(row).toContainText("Chave E2E");
    await expect(row).not.toContainText("Nunca usada");
    expect(await page.content()).not.toContain(key);

    await row.getByRole("button", { name: "Revogar" }).click();
    await row.getByRole("button", { name: "Revogar chave" }).click();
    await expect(row).toContainText("Revogada em");
    const revoked = await page.request.get(`/manager/v1/data/${networkId}`, { headers: { "x-api-key": key } });
    expect(revoked.status()).toBe(401);
    expect(await revoked.json()).toEqual({ message: "Unauthorized" });

    await page.goto("/desenvolvedor/atividade");
    const log = page.getByRole("list", { name: "Registro de atividade" });
    await expect(log).toContainText("Diego Martins revogou uma chave da API");
    await expect(log).toContainText("criou a aplicação — Painel E2E");
    expect(await page.content()).not.toContain(key);
    expect(await page.content()).not.toContain(clientSecret);
  });

  test("the launch tester passes every case against the hub's reference tool", async ({ page }) => {
    await page.goto("/desenvolvedor");
    await page.getByRole("link", { name: "Testar lançamento de Ferramenta de Demonstração" }).click();
    await page.getByRole("button", { name: "Executar teste" }).click();
    await expect(page.getByRole("heading", { name: "Todos os casos passaram" })).toBeVisible({ timeout: 30_000 });
    const rows = page.locator("tr[data-case]");
    await expect(rows).toHaveCount(10);
    await expect(page.locator('tr[data-passed="true"]')).toHaveCount(10);
    await expect(page.locator('tr[data-case="valid"]')).toContainText("HTTP 200");
    for (const id of ["replayed_nonce", "bad_signature", "old_timestamp", "future_timestamp", "wrong_lti_version", "wrong_message_type", "missing_resource_link_id", "unknown_consumer_key", "missing_consumer_key"]) {
      await expect(page.locator(`tr[data-case="${id}"]`)).toContainText("HTTP 401");
    }
  });

  test.describe("against a lax endpoint", () => {
    let lax: Server;
    let laxUrl = "";
    test.beforeAll(async () => {
      lax = createServer((req, res) => {
        req.resume();
        req.on("end", () => res.writeHead(200, { "Content-Type": "text/html" }).end("<h1>Tudo certo!</h1>"));
      });
      await new Promise<void>((resolve) => lax.listen(0, "127.0.0.1", resolve));
      laxUrl = `http://127.0.0.1:${(lax.address() as AddressInfo).port}/launch`;
    });
    test.afterAll(async () => {
      lax.closeAllConnections();
      await new Promise<void>((resolve) => lax.close(() => resolve()));
    });

    test("the launch tester reports every negative case as failed", async ({ page }) => {
      const { toolId } = await registerTool(page, { title: "Ferramenta Permissiva", launchUrl: laxUrl, consumerKey: "permissiva" });
      await page.goto(`/desenvolvedor/ferramentas/${toolId}/testar`);
      await page.getByRole("button", { name: "Executar teste" }).click();
      await expect(page.getByRole("heading", { name: "9 de 10 casos falharam" })).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('tr[data-case="valid"][data-passed="true"]')).toContainText("HTTP 200");
      await expect(page.locator('tr[data-passed="false"]')).toHaveCount(9);
      for (const row of await page.locator('tr[data-passed="false"]').all()) {
        await expect(row).toContainText("HTTP 200");
        await expect(row).toContainText("aceitou um lançamento que deveria recusar");
      }
    });
  });

  test("another edtech's tools cannot be seen or changed, and non-developers are kept out", async ({ page, browser }) => {
    // Laboratório de Frações belongs to Aprende Mais, not to Edtech Demo.
    const teacher = await signInAsTeacher(browser);
    const href = (await teacher.getByRole("link", { name: "Detalhes de Laboratório de Frações" }).getAttribute("href")) ?? "";
    const foreignToolId = href.split("/").pop() ?? "";
    expect(foreignToolId).toMatch(/^[0-9a-f-]{36}$/);

    // A person in no edtech gets the 403 page, for the area and for any tool in it.
    await teacher.goto("/desenvolvedor");
    await expect(teacher.getByRole("heading", { name: "Acesso restrito" })).toBeVisible();
    await teacher.goto(`/desenvolvedor/ferramentas/${foreignToolId}`);
    await expect(teacher.getByRole("heading", { name: "Acesso restrito" })).toBeVisible();

    for (const path of [`/desenvolvedor/ferramentas/${foreignToolId}`, `/desenvolvedor/ferramentas/${foreignToolId}/testar`]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
    }
    await page.goto("/desenvolvedor");
    await expect(page.getByText("Laboratório de Frações")).toHaveCount(0);

    // A forged request: the withdraw form of our own tool, pointed at theirs.
    await page.getByRole("link", { name: "Editar Ferramenta de Demonstração" }).click();
    await page.locator('form[aria-label="Retirar ferramenta"] input[name="toolId"]').evaluate((input: HTMLInputElement, id: string) => {
      input.value = id;
    }, foreignToolId);
    await page.getByRole("button", { name: "Retirar da galeria" }).click();
    await page.getByRole("button", { name: "Retirar", exact: true }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Ferramenta não encontrada.");
    await page.reload();
    await expect(page.getByText("Ativa na galeria")).toBeVisible();
    await teacher.goto("/");
    await expect(teacher.getByRole("link", { name: "Detalhes de Laboratório de Frações" })).toBeVisible();

    // Signed out: sent to sign in, and back here afterwards.
    const anonymous = await (await browser.newContext()).newPage();
    await anonymous.goto("/desenvolvedor/ferramentas/nova");
    await expect(anonymous).toHaveURL(/\/login\?callbackUrl=%2Fdesenvolvedor%2Fferramentas%2Fnova/);
  });
});
