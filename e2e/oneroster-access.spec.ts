// OneRoster 1.2 authorization through the served hub (issue #43 point 2, docs/oneroster.md
// "Conectar"): a manager turns OneRoster on in an application's sharing rule in /gestao; the
// developer area then lists the institution, and the application's own credentials get a
// client-credentials token at /ims/oneroster/token, which user info refuses. Each test makes its
// own application, except the one that reads the demo application's seeded access.
import type { APIRequestContext, Browser } from "@playwright/test";
import { expect, signedIn, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";
const DEVELOPER = "dev@edtech.demo";
const SCHOOL = "EMEF Monteiro Lobato";
const SCOPE = "https://purl.imsglobal.org/spec/or/v1p2/scope/";
const ALL_SCOPES = ["roster-core.readonly", "roster.readonly", "roster-demographics.readonly"].map((s) => SCOPE + s).join(" ");

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

async function tokenAnswer(request: APIRequestContext, form: Record<string, string>, authorization?: string) {
  const response = await request.post("/ims/oneroster/token", { form: { grant_type: "client_credentials", ...form }, headers: authorization ? { authorization } : {} });
  return { status: response.status(), headers: response.headers(), body: (await response.json()) as Record<string, string | number> };
}

/** A new application of Edtech Demo, made in the developer area: its id, client id and (shown once) secret. */
async function newApplication(browser: Browser, name: string): Promise<{ id: string; clientId: string; clientSecret: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signedIn(page, DEVELOPER);
  await page.goto("/desenvolvedor/aplicacoes/nova");
  await page.getByLabel("Nome", { exact: true }).fill(name);
  await page.getByLabel(/Endereços de retorno/).fill("https://roster.example/callback");
  await page.getByRole("button", { name: "Criar aplicação" }).click();
  await expect(page.getByRole("heading", { name: "Aplicação criada" })).toBeVisible();
  const clientId = await page.getByTestId("client-id").innerText();
  const clientSecret = await page.getByLabel("client_secret").inputValue();
  await page.getByRole("link", { name: /Ver a aplicação/ }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const id = new URL(page.url()).pathname.split("/").at(-1)!;
  await context.close();
  return { id, clientId, clientSecret };
}

test("a manager turns OneRoster on for an application: the developer page lists the school and the application gets a token", async ({ page, browser }) => {
  const name = `Roster E2E ${Date.now() % 1_000_000}`;
  const app = await newApplication(browser, name);

  // Before: the developer page says no institution enabled it, and the token endpoint refuses.
  const developer = await browser.newContext();
  const devPage = await developer.newPage();
  await signedIn(devPage, DEVELOPER);
  await devPage.goto(`/desenvolvedor/aplicacoes/${app.id}`);
  const card = devPage.getByRole("region", { name: "OneRoster 1.2" });
  await expect(card.getByTestId("oneroster-none")).toBeVisible();
  await expect(card.getByTestId("oneroster-token-url")).toHaveText(/\/ims\/oneroster\/token$/);
  const refused = await tokenAnswer(devPage.request, {}, basic(app.clientId, app.clientSecret));
  expect([refused.status, refused.body.error]).toEqual([400, "unauthorized_client"]);

  // The manager gives the application its own rule at the school, with OneRoster on.
  await signedIn(page, MANAGER);
  await page.goto("/gestao");
  const schoolId = ((await page.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name: SCHOOL, exact: true }).getAttribute("href")) ?? "").split("/")[2]!;
  await page.goto(`/gestao/${schoolId}/aplicativos`);
  const rules = page.getByRole("form", { name: `Regras de ${name}` });
  await rules.getByLabel("Configuração própria").check();
  await rules.getByRole("group", { name: "Nome (nome_usuario)" }).getByLabel("Compartilhado", { exact: true }).check();
  await rules.getByLabel("OneRoster 1.2 (API de roster padrão)").check();
  await rules.getByRole("button", { name: "Salvar regras" }).click();
  await expect(rules.getByRole("status")).toContainText("Regras de compartilhamento salvas");
  await page.goto(`/gestao/${schoolId}/aplicativos`);
  await expect(page.getByTestId(`status-${app.id}`)).toHaveText("Configuração própria desta instituição · OneRoster 1.2 habilitado");
  await expect(rules.getByLabel("OneRoster 1.2 (API de roster padrão)")).toBeChecked();

  // The rule history shows it, before → after.
  await page.goto(`/gestao/${schoolId}/acessos/regras?parceiro=${app.id}`);
  const change = page.getByRole("table", { name: "Mudanças nas regras de compartilhamento" }).getByRole("row").nth(1);
  await expect(change.getByRole("cell").last()).toContainText("OneRoster 1.2: habilitado");

  // The developer page now lists the school, and the application's credentials get a token.
  await devPage.goto(`/desenvolvedor/aplicacoes/${app.id}`);
  await expect(card.getByTestId("oneroster-institutions")).toContainText(SCHOOL);
  await expect(card.getByTestId("oneroster-none")).toHaveCount(0);
  const granted = await tokenAnswer(devPage.request, {}, basic(app.clientId, app.clientSecret));
  expect(granted.status).toBe(200);
  expect(granted.headers["cache-control"]).toBe("no-store");
  expect(granted.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: ALL_SCOPES });
  expect(String(granted.body.access_token).split(".")).toHaveLength(3);
  // client_secret_post, asking for one scope: the token carries that one.
  const core = await tokenAnswer(devPage.request, { client_id: app.clientId, client_secret: app.clientSecret, scope: `${SCOPE}roster-core.readonly` });
  expect([core.status, core.body.scope]).toEqual([200, `${SCOPE}roster-core.readonly`]);
  await developer.close();
});

test("the demo application's seeded access: a token by HTTP Basic, refused by user info", async ({ request }) => {
  const answer = await tokenAnswer(request, {}, basic("demo-app", "demo-secret"));
  expect(answer.status).toBe(200);
  expect(answer.body.scope).toBe(ALL_SCOPES);
  const userInfo = await request.get("/users/v1/users/info", { headers: { authorization: `Bearer ${String(answer.body.access_token)}` } });
  expect(userInfo.status()).toBe(401);
  expect(((await userInfo.json()) as { error: string }).error).toBe("invalid_token");
  const wrong = await tokenAnswer(request, {}, basic("demo-app", "not-the-secret"));
  expect([wrong.status, wrong.body.error]).toEqual([401, "invalid_client"]);
  expect(wrong.headers["www-authenticate"]).toMatch(/^Basic /);
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the developer page's OneRoster card reads without sideways scrolling", async ({ page }) => {
    await signedIn(page, DEVELOPER);
    await page.goto("/desenvolvedor");
    await page.getByRole("link", { name: "Aplicativo de Demonstração" }).first().click();
    const card = page.getByRole("region", { name: "OneRoster 1.2" });
    await expect(card.getByTestId("oneroster-institutions")).toContainText("Rede Municipal de Vila Esperança");
    await expect(card.getByTestId("oneroster-base-url")).toHaveText(/\/ims\/oneroster\/rostering\/v1p2$/);
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(scroll).toBeLessThanOrEqual(client);
  });
});
