// LTI 1.3 against a tool library that is not ours (issue #21, acceptance): ltijs, an IMS-certified
// LTI 1.3 tool, runs beside the served hub. A developer registers a tool for LTI 1.3 in
// /desenvolvedor and pastes the hub's values into ltijs; a manager places it at a new school; a
// student opens it from the gallery and the browser goes through the whole OIDC launch (launch
// page → the tool's login → /lti13/authorize → id_token form post), which ltijs verifies.
import type { Browser, Page } from "@playwright/test";
import { addPerson, createUnit, expect, placeTool, png, signedIn, signIn, test } from "./fixtures";
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
async function registerLti13Tool(
  page: Page,
  title: string,
  toolUrl: string,
  paths = { login: "/login", launch: "/", keys: "/keys", deepLinking: "/" },
): Promise<{ toolId: string; facts: Record<string, string> }> {
  await signedIn(page, DEVELOPER);
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
  const toolId = page.url().split("/").pop() ?? "";

  const form = page.getByRole("form", { name: "Registro LTI 1.3" });
  await form.getByLabel("Endereço de início de login (OIDC login initiation)").fill(`${toolUrl}${paths.login}`);
  await form.getByLabel("Target link URI").fill(`${toolUrl}${paths.launch}`);
  await form.getByLabel("Redirect URIs").fill(`${toolUrl}${paths.launch}`);
  await form.getByLabel("Endereço JWKS da ferramenta").fill(`${toolUrl}${paths.keys}`);
  // ltijs answers deep linking requests on its launch route.
  await form.getByLabel("Endereço de deep linking (opcional)").fill(`${toolUrl}${paths.deepLinking}`);
  await form.getByRole("button", { name: "Passar a lançar com LTI 1.3" }).click();
  await expect(form.getByRole("status")).toContainText("Registro LTI 1.3 salvo");
  const facts: Record<string, string> = {};
  for (const key of ["issuer", "clientId", "deploymentId", "authorizationEndpoint", "tokenEndpoint", "jwksUrl"]) {
    facts[key] = (await page.locator(`[data-platform-fact="${key}"]`).textContent()) ?? "";
  }
  return { toolId, facts };
}

/** School data through /gestao's CSV import (its own endpoint), as the signed-in manager. */
async function importCsv(page: Page, baseURL: string, schoolId: string, kind: string, csv: string): Promise<void> {
  const response = await page.request.post(`/gestao/${schoolId}/importar/executar?tipo=${kind}`, { data: csv, headers: { "content-type": "text/csv", origin: baseURL } });
  expect(response.status()).toBe(200);
  const last = (await response.text()).trim().split("\n").pop()!;
  expect(JSON.parse(last), `${kind}: ${last}`).toMatchObject({ type: "result", ok: true });
}

interface TLaunched {
  user: string;
  userInfo: Record<string, unknown>;
  deploymentId: string;
  context: { roles: string[]; resource: { id: string; title?: string }; context?: { id: string }; messageType: string; version: string; targetLinkUri: string; custom?: Record<string, string> };
  members: Array<{ user_id: string; roles: string[]; name?: string; email?: string; status: string }> | null;
}

async function launched(page: Page): Promise<TLaunched> {
  return JSON.parse((await page.locator("#ltijs-launch").textContent()) ?? "null") as TLaunched;
}

/** What the first test set up, for the second. */
let setup: { tag: string; title: string; toolId: string; facts: Record<string, string>; schoolId: string; studentEmail: string } | null = null;

test("ltijs completes a resource-link launch from the gallery; claims follow the school's rules", async ({ browser, baseURL }) => {
  test.skip(!tool, "no PostgreSQL for ltijs (set LTIJS_DATABASE_URL)");
  // Three people's pages in one test, on a machine other suites share.
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const title = `Ferramenta LTI 1.3 ${tag}`;
  const { toolId, facts } = await registerLti13Tool(await newPage(browser), title, tool!.url);
  expect(facts.issuer).toBe(baseURL);
  expect(facts.jwksUrl).toBe(`${baseURL}/.well-known/jwks.json`);
  await registerHubAtLtijs(facts);

  const manager = await newPage(browser);
  await signedIn(manager, MANAGER);
  // Edtech Demo's contract is at the demo network already, so the new school inherits it.
  const schoolId = await createUnit(manager, `Escola LTI13 ${tag}`, "school", "Rede Municipal de Vila Esperança");
  await placeTool(manager, schoolId, `${title} — ${EDTECH}`);
  const email = `aluna.lti13.${tag}@escola.test`;
  await addPerson(manager, schoolId, { name: `Aluna LTI13 ${tag}`, role: "aluno", email, password: "senha-da-aluna-123" });
  setup = { tag, title, toolId, facts, schoolId, studentEmail: email };

  const student = await newPage(browser);
  await signIn(student, email, "senha-da-aluna-123");
  await student.getByRole("list", { name: "Ferramentas disponíveis" }).getByRole("link", { name: `Abrir ${title}` }).click();
  await expect(student).toHaveURL(new RegExp(`^${tool!.url}/`));
  const received = await launched(student);
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

test("ltijs: a teacher's deep-linking round trip makes a class item, whose launch reads the class with NRPS", async ({ browser, baseURL }) => {
  test.skip(!tool, "no PostgreSQL for ltijs (set LTIJS_DATABASE_URL)");
  test.setTimeout(180_000);
  expect(setup, "the resource-link test sets up the tool and the school").not.toBeNull();
  const { tag, toolId, facts, schoolId, studentEmail } = setup!;
  const className = `7º ano LTI ${tag}`;
  const teacherEmail = `professora.lti13.${tag}@escola.test`;

  // A class at the new school, the student in it, a teacher teaching it.
  const manager = await newPage(browser);
  await signedIn(manager, MANAGER);
  await addPerson(manager, schoolId, { name: `Professora LTI13 ${tag}`, role: "professor", email: teacherEmail, password: "senha-da-professora-1" });
  await importCsv(manager, baseURL!, schoolId, "periodos", "codigo;nome;inicio;fim\n2026;Ano letivo 2026;02/02/2026;11/12/2026");
  await importCsv(manager, baseURL!, schoolId, "turmas", `periodo;nome\n2026;${className}`);
  await importCsv(manager, baseURL!, schoolId, "disciplinas", "nome\nMatemática");
  await importCsv(manager, baseURL!, schoolId, "matriculas", `periodo;turma;aluno\n2026;${className};${studentEmail}`);
  await importCsv(manager, baseURL!, schoolId, "professores", `periodo;turma;disciplina;professor\n2026;${className};Matemática;${teacherEmail}`);

  // The teacher opens the tool's content picker from the tool's page; ltijs answers with one
  // LtiResourceLink, signed with its key, which the hub verifies against the registered JWKS URL.
  const teacher = await newPage(browser);
  await signIn(teacher, teacherEmail, "senha-da-professora-1");
  await teacher.goto(`/ferramentas/${toolId}`);
  await teacher.getByRole("link", { name: `Escolher conteúdo para ${className} · Ano letivo 2026` }).click();
  await expect(teacher.getByRole("heading", { name: "1 conteúdo adicionado" })).toBeVisible();
  await expect(teacher.getByText("Conteúdo enviado pelo ltijs.")).toBeVisible();
  const placementId = await teacher.locator("[data-placement-id]").getAttribute("data-placement-id");

  // The new item launches like any placement; a class placement's launch carries the memberships
  // URL, and ltijs reads the class with a client-credentials token (its own RFC 7523 assertion).
  await teacher.getByRole("link", { name: "Abrir" }).click();
  await expect(teacher).toHaveURL(new RegExp(`^${tool!.url}/`));
  const received = await launched(teacher);
  expect(received.deploymentId).toBe(facts.deploymentId);
  expect(received.context.resource).toMatchObject({ id: placementId, title: "Atividade escolhida no ltijs" });
  expect(received.context.custom).toEqual({ atividade: "a1" });
  expect(received.context.roles).toContain("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor");
  expect(received.members).not.toBeNull();
  expect(received.members!.map((m) => m.roles[0]).sort()).toEqual([
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",
  ]);
  // The teacher's own id in the class list is the launch's sub; nothing personal is shared.
  expect(received.members!.map((m) => m.user_id)).toContain(received.user);
  for (const member of received.members!) {
    expect(member.name).toBeUndefined();
    expect(member.email).toBeUndefined();
  }
});

test("a tool that sends the authentication request as a cross-site form POST gets the launch of the person signed in, who is not asked again", async ({ browser, baseURL }) => {
  test.skip(!tool || !setup, "needs ltijs and the first test's school (no PostgreSQL for ltijs?)");
  test.setTimeout(120_000);
  const student = await newPage(browser);
  await signIn(student, setup!.studentEmail, "senha-da-aluna-123");
  const atTool = (url: URL, path: string) => url.origin === new URL(tool!.url).origin && url.pathname === path;
  // The hub's launch page posts the login initiation to the tool: keep its fields, stop there.
  let initiation: URLSearchParams | null = null;
  await student.route((url) => atTool(url, "/login"), (route) => {
    initiation = new URLSearchParams(route.request().postData() ?? "");
    return route.fulfill({ status: 200, contentType: "text/html", body: "<p>login</p>" });
  });
  await student.getByRole("list", { name: "Ferramentas disponíveis" }).getByRole("link", { name: `Abrir ${setup!.title}` }).click();
  await student.waitForURL((url) => atTool(url, "/login"));
  expect(initiation).not.toBeNull();
  // What the hub posts back to the tool's redirect URI, caught there.
  let idToken: string | null = null;
  await student.route((url) => atTool(url, "/"), (route) => {
    if (route.request().method() !== "POST") return route.continue();
    idToken = new URLSearchParams(route.request().postData() ?? "").get("id_token");
    return route.fulfill({ status: 200, contentType: "text/html", body: "<p>launched</p>" });
  });
  // The tool's authentication request as a form POST from another site (127.0.0.1 is not
  // localhost's site): the browser leaves the hub's SameSite=Lax session cookie off it.
  const fields = initiation!;
  const authentication = {
    scope: "openid", response_type: "id_token", response_mode: "form_post", prompt: "none",
    client_id: fields.get("client_id") ?? "", redirect_uri: `${tool!.url}/`, login_hint: fields.get("login_hint") ?? "",
    lti_message_hint: fields.get("lti_message_hint") ?? "", state: "cross-site-state", nonce: `cross-site-${Date.now()}`,
  };
  const otherSite = new URL(baseURL!);
  otherSite.hostname = "127.0.0.1";
  await student.goto(new URL("/healthz", otherSite).toString());
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const inputs = Object.entries(authentication).map(([name, value]) => `<input type="hidden" name="${name}" value="${escape(value)}">`);
  await student.setContent(`<form method="post" action="${baseURL}/lti13/authorize">${inputs.join("")}</form>`);
  const pages: string[] = [];
  student.on("request", (request) => {
    if (request.isNavigationRequest()) pages.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await student.locator("form").evaluate((form: HTMLFormElement) => form.submit());
  await expect.poll(() => idToken).not.toBeNull();
  const claims = JSON.parse(Buffer.from(idToken!.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
  expect(claims.nonce).toBe(authentication.nonce);
  expect(claims["https://purl.imsglobal.org/spec/lti/claim/message_type"]).toBe("LtiResourceLinkRequest");
  expect(claims.sub).toBe(authentication.login_hint);
  // The cross-site POST, then the same POST from the hub's own page, with the session: no sign-in
  // page, no profile picker.
  expect(pages.filter((page) => page.endsWith("/lti13/authorize"))).toEqual(["POST /lti13/authorize", "POST /lti13/authorize"]);
  expect(pages.filter((page) => /\/(login|perfil)$/.test(page))).toEqual([]);
});

test("the launch tester's LTI 1.3 cases all pass against the hub's reference LTI 1.3 tool", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const page = await newPage(browser);
  const title = `Referência LTI 1.3 ${Date.now().toString(36)}`;
  const { toolId } = await registerLti13Tool(page, title, baseURL!, {
    login: "/demo-tool/lti13/login",
    launch: "/demo-tool/lti13/launch",
    keys: "/.well-known/jwks.json",
    deepLinking: "/demo-tool/lti13/launch",
  });
  await page.goto(`/desenvolvedor/ferramentas/${toolId}/testar`);
  await page.getByRole("button", { name: "Executar teste" }).click();
  await expect(page.getByRole("heading", { name: "Todos os casos passaram" })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("tr[data-case]")).toHaveCount(6);
  await expect(page.locator('tr[data-case="valid"]')).toContainText("HTTP 200");
  for (const id of ["replayed_nonce", "expired_id_token", "wrong_aud", "unknown_kid", "wrong_deployment_id"]) {
    await expect(page.locator(`tr[data-case="${id}"]`)).toContainText("HTTP 401");
  }
});
