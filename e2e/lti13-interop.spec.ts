// LTI 1.3 against a tool library that is not ours (issue #21, acceptance): ltijs, an IMS-certified
// LTI 1.3 tool, runs beside the served hub. A developer registers a tool for LTI 1.3 in
// /desenvolvedor and pastes the hub's values into ltijs; a manager places it at a new school; a
// student opens it from the gallery and the browser goes through the whole OIDC launch (launch
// page → the tool's login → /lti13/authorize → id_token form post), which ltijs verifies.
import type { Browser, Page } from "@playwright/test";
import { addPerson, createUnit, expect, placeTool, png, signIn, test } from "./fixtures";
import { registerHubAtLtijs, startLtijsTool, type TLtijsTool } from "./lti13-tool";

const DEVELOPER = "dev@edtech.demo";
const MANAGER = "gestor@demo.hub.br";
const EDTECH = "Edtech Demo";
const TOOL_PORT = Number(process.env.E2E_PORT ?? 3100) + 41;

test.describe.configure({ mode: "serial" });

let tool: TLtijsTool | null = null;

test.beforeAll(async () => {
  tool = await startLtijsTool(TOOL_PORT);
});
test.afterAll(async () => {
  await tool?.close();
});

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** The developer's side: a tool, then its LTI 1.3 registration; the hub's values as shown. */
async function registerLti13Tool(page: Page, title: string, toolUrl: string): Promise<Record<string, string>> {
  await signIn(page, DEVELOPER);
  await page.goto("/desenvolvedor/ferramentas/nova");
  await page.getByLabel("Título", { exact: true }).fill(title);
  await page.getByLabel("Descrição curta", { exact: true }).fill("Ferramenta LTI 1.3 de teste.");
  await page.getByLabel("Descrição longa", { exact: true }).fill("Abre com login OIDC e id_token.");
  await page.getByLabel("Site", { exact: true }).fill("https://ltijs.example");
  await page.getByLabel("Endereço de lançamento", { exact: true }).fill(`${toolUrl}/lti10-unused`);
  await page.getByLabel(/Consumer key/).fill(`ltijs-${Date.now()}`);
  await page.getByLabel("Logo", { exact: true }).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png() });
  await page.getByRole("button", { name: "Cadastrar ferramenta" }).click();
  await page.getByRole("link", { name: "Ver a ferramenta" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  const form = page.getByRole("form", { name: "Registro LTI 1.3" });
  await form.getByLabel("Endereço de início de login (OIDC login initiation)").fill(`${toolUrl}/login`);
  await form.getByLabel("Target link URI").fill(`${toolUrl}/`);
  await form.getByLabel("Redirect URIs").fill(`${toolUrl}/`);
  await form.getByLabel("Endereço JWKS da ferramenta").fill(`${toolUrl}/keys`);
  await form.getByRole("button", { name: "Passar a lançar com LTI 1.3" }).click();
  await expect(form.getByRole("status")).toContainText("Registro LTI 1.3 salvo");
  const facts: Record<string, string> = {};
  for (const key of ["issuer", "clientId", "deploymentId", "authorizationEndpoint", "tokenEndpoint", "jwksUrl"]) {
    facts[key] = (await page.locator(`[data-platform-fact="${key}"]`).textContent()) ?? "";
  }
  return facts;
}

test("ltijs completes a resource-link launch from the gallery; claims follow the school's rules", async ({ browser, baseURL }) => {
  test.skip(!tool, "no PostgreSQL for ltijs (set LTIJS_DATABASE_URL)");
  // Three people's pages in one test, on a machine other suites share.
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const title = `Ferramenta LTI 1.3 ${tag}`;
  const facts = await registerLti13Tool(await newPage(browser), title, tool!.url);
  expect(facts.issuer).toBe(baseURL);
  expect(facts.jwksUrl).toBe(`${baseURL}/.well-known/jwks.json`);
  await registerHubAtLtijs(facts);

  const manager = await newPage(browser);
  await signIn(manager, MANAGER);
  // Edtech Demo's contract is at the demo network already, so the new school inherits it.
  const schoolId = await createUnit(manager, `Escola LTI13 ${tag}`, "school", "Rede Municipal de Vila Esperança");
  await placeTool(manager, schoolId, `${title} — ${EDTECH}`);
  const email = `aluna.lti13.${tag}@escola.test`;
  await addPerson(manager, schoolId, { name: `Aluna LTI13 ${tag}`, role: "aluno", email, password: "senha-da-aluna-123" });

  const student = await newPage(browser);
  await signIn(student, email, "senha-da-aluna-123");
  await student.getByRole("list", { name: "Ferramentas disponíveis" }).getByRole("link", { name: `Abrir ${title}` }).click();
  await expect(student).toHaveURL(new RegExp(`^${tool!.url}/`));
  const received = JSON.parse((await student.locator("#ltijs-launch").textContent()) ?? "null") as {
    user: string;
    userInfo: Record<string, unknown>;
    deploymentId: string;
    context: { roles: string[]; resource: { id: string }; messageType: string; version: string; targetLinkUri: string };
  };
  expect(received.deploymentId).toBe(facts.deploymentId);
  expect(received.user).toMatch(/^[0-9a-f-]{36}$/);
  expect(received.context.messageType).toBe("LtiResourceLinkRequest");
  expect(received.context.version).toBe("1.3.0");
  expect(received.context.roles).toContain("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner");
  expect(received.context.resource.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(received.context.targetLinkUri).toBe(`${tool!.url}/`);
  // The new school shares nothing with the tool: no name, no e-mail.
  expect(received.userInfo.name).toBeUndefined();
  expect(received.userInfo.email).toBeUndefined();
});
