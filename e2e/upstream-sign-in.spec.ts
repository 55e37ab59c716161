// Signing in with the network's own accounts (issue #42) through the served hub, against real
// OpenID providers (test/fixtures/upstream-provider.ts: node-oidc-provider, one per preset, in
// this worker's process). A network of this run is configured in /gestao by its manager through
// the form; its people then sign in with Google, Microsoft, gov.br or a generic provider in
// Chromium (with and without JavaScript, at 390 px), by home-realm discovery, and through every
// refusal the callback has, each leaving no session. The session they get is a password one's
// (same LTI and OAuth user_id); accounts are unlinked and linked again from "Meus dados"; the
// usage page counts the Google sign-ins; discovery is read once per provider.
//
// Everything is the run's own (a random tag in every name, domain, client id and e-mail, fresh
// CPFs): other specs share the server, and the plain /login page shows this network's buttons to
// them, which is harmless. The services behind these routes, refusal by refusal, are unit-tested
// in lib/server/upstream/upstream-sign-in.test.ts.
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import type { APIRequestContext, APIResponse, Browser, BrowserContext, Page, PlaywrightWorkerArgs } from "@playwright/test";
import {
  signInHeadless,
  startUpstreamProvider,
  type TIdTokenTamperMode,
  type TUpstreamAccount,
  type TUpstreamPreset,
  type TUpstreamProvider,
} from "../test/fixtures/upstream-provider";
import { addPerson, captureLaunchForm, createUnit, expect, placeTool, signedIn, signIn, signInByForm, test } from "./fixtures";

const MANAGER = "gestor@demo.hub.br";
const MANAGER_NAME = "Regina Campos";
const DEMO_NETWORK = "Rede Municipal de Vila Esperança";
const SESSION_COOKIE = "next-auth.session-token";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// What /entrar/recusado?motivo=… says, as a person reads it (lib/upstream/refusals.ts).
const REFUSAL_HEADING = {
  estado: "O pedido de entrada expirou",
  desativado: "Esta forma de entrada está desativada",
  provedor: "O provedor não concluiu a entrada",
  resposta: "Não foi possível confirmar a sua conta",
  "nao-verificado": "O e-mail desta conta não está confirmado",
  dominio: "Esta conta não é da sua rede",
  desconhecido: "Não encontramos você no cadastro da rede",
  desvinculada: "Esta conta foi desvinculada",
} as const;
type TMotivo = keyof typeof REFUSAL_HEADING;

// One worker runs this file's tests in order: the providers started in beforeAll live in that
// worker's process (their tamper switches and request counters are read by the tests), and the
// network they are configured in is set up once. The tests do not depend on one another.
test.describe.configure({ mode: "default" });

/** A CPF with valid check digits, fresh for this run. */
function freshCpf(): string {
  for (;;) {
    const digits = Array.from({ length: 9 }, () => randomInt(10));
    if (digits.every((d) => d === digits[0])) continue;
    const check = () => {
      const sum = digits.reduce((n, d, i) => n + d * (digits.length + 1 - i), 0);
      return ((sum * 10) % 11) % 10;
    };
    digits.push(check());
    digits.push(check());
    return digits.join("");
  }
}

const tag = randomBytes(3).toString("hex");
const base = `rede${tag}.edu.br`;
// One domain per provider, so a typed e-mail names exactly one of them (home-realm discovery).
const DOMAIN = { google: `alunos.${base}`, microsoft: `professores.${base}`, oidc: base } as const;
const FOREIGN_DOMAIN = `outra${tag}.edu.br`;
const TENANT = randomUUID();
const OTHER_TENANT = randomUUID();
const NETWORK = `Rede Entrada ${tag}`;
const SCHOOL = `EMEF Entrada ${tag}`;
const OTHER_NETWORK = `Rede Vizinha ${tag}`;
const OIDC_NAME = `Conta Escolar ${tag}`;
const BUTTON = { google: "Entrar com Google", microsoft: "Entrar com Microsoft", govbr: "Entrar com gov.br", oidc: `Entrar com ${OIDC_NAME}` } as const;
const PASSWORD = "senha-entrada-123";

interface TPerson {
  name: string;
  email: string;
  /** What is typed at the provider. */
  login: string;
  cpf?: string;
  /** The hub's person id, read from a password session in beforeAll. */
  personId?: string;
}
const govCpf = freshCpf();
const people = {
  gabriela: { name: `Gabriela Entrada ${tag}`, email: `gabriela@${DOMAIN.google}`, login: `gabriela@${DOMAIN.google}` },
  marcos: { name: `Marcos Entrada ${tag}`, email: `marcos@${DOMAIN.microsoft}`, login: `marcos@${DOMAIN.microsoft}` },
  rosa: { name: `Rosa Entrada ${tag}`, email: `rosa@familias.${base}`, login: govCpf, cpf: govCpf },
  olga: { name: `Olga Entrada ${tag}`, email: `olga@${DOMAIN.oidc}`, login: `olga@${DOMAIN.oidc}` },
  lia: { name: `Lia Entrada ${tag}`, email: `lia@${DOMAIN.google}`, login: `lia@${DOMAIN.google}` },
  rui: { name: `Rui Entrada ${tag}`, email: `rui@${DOMAIN.google}`, login: `rui@${DOMAIN.google}` },
} satisfies Record<string, TPerson>;
const person = people as Record<keyof typeof people, TPerson>;

const googleAccount = (p: TPerson, login = p.login, claims: Record<string, string | boolean> = {}): TUpstreamAccount => ({
  login,
  claims: { sub: `g-${login}`, email: p.email, email_verified: true, hd: DOMAIN.google, name: p.name, ...claims },
});
// Rui's e-mail, verified, but not a Workspace account (Google sends no `hd`).
const { hd: _hd, ...ruiWithoutHd } = googleAccount(person.rui, "rui-sem-hd").claims;
// The accounts each provider knows, besides the people's own: one per refusal of the account's claims.
const ACCOUNTS: Record<TUpstreamPreset, TUpstreamAccount[]> = {
  google: [
    googleAccount(person.gabriela),
    googleAccount(person.lia),
    googleAccount(person.rui),
    googleAccount(person.rui, "rui-nao-verificado", { email_verified: false }),
    { login: "rui-sem-hd", claims: ruiWithoutHd },
    { login: `carla@${FOREIGN_DOMAIN}`, claims: { sub: "g-carla", email: `carla@${FOREIGN_DOMAIN}`, email_verified: true, hd: FOREIGN_DOMAIN, name: "Carla de Fora" } },
    { login: `ninguem@${DOMAIN.google}`, claims: { sub: "g-ninguem", email: `ninguem@${DOMAIN.google}`, email_verified: true, hd: DOMAIN.google, name: "Ninguém Cadastrado" } },
  ],
  microsoft: [
    { login: person.marcos.login, claims: { sub: "ms-marcos", email: person.marcos.email, xms_edov: true, preferred_username: person.marcos.email, name: person.marcos.name } },
    {
      login: "marcos-outro-locatario",
      claims: { sub: "ms-marcos-outro", tid: OTHER_TENANT, email: person.marcos.email, xms_edov: true, preferred_username: person.marcos.email, name: person.marcos.name },
    },
  ],
  govbr: [{ login: govCpf, claims: { sub: govCpf, name: person.rosa.name, email: person.rosa.email, email_verified: true } }],
  oidc: [{ login: person.olga.login, claims: { sub: "oidc-olga", email: person.olga.email, email_verified: true, name: person.olga.name } }],
};

const CLIENT_ID = (preset: string) => `hub-${preset}-${tag}`;
const SECRET = (preset: string) => `segredo-${preset}-${randomBytes(12).toString("hex")}`;
const secrets: Record<string, string> = {};

let baseURL = "";
let requests: PlaywrightWorkerArgs["playwright"]["request"];
const providers = {} as Record<TUpstreamPreset, TUpstreamProvider>;
/** The hub's id of each provider of the run's network. */
const providerIds = {} as Record<TUpstreamPreset, string>;
const ids = { network: "", school: "", otherNetwork: "", otherSchool: "" };
const opened: APIRequestContext[] = [];

/** A fresh API context on the hub (its own cookies), disposed after the test. */
async function freshApi(): Promise<APIRequestContext> {
  const context = await requests.newContext({ baseURL });
  opened.push(context);
  return context;
}

/** Adds one provider through /gestao/{id}/entrada's form and checks the form's answer. */
async function addProvider(page: Page, institutionId: string, fields: { kind: TUpstreamPreset; name?: string; tenantId?: string; issuer: string; clientId: string; secret: string; domains?: string; linkRule?: "email" | "cpf" }) {
  await page.goto(`/gestao/${institutionId}/entrada`);
  const form = page.getByRole("form", { name: "Adicionar forma de entrada" });
  await form.getByLabel("Provedor").selectOption(fields.kind);
  if (fields.name) await form.getByLabel("Nome no botão").fill(fields.name);
  if (fields.tenantId) await form.getByLabel("ID do locatário").fill(fields.tenantId);
  await form.getByLabel("Emissor").fill(fields.issuer);
  await form.getByLabel("Client ID").fill(fields.clientId);
  await form.getByLabel("Client secret").fill(fields.secret);
  if (fields.domains) await form.getByLabel("Domínios de e-mail da rede").fill(fields.domains);
  if (fields.linkRule) await form.getByLabel("Como a conta encontra a pessoa no Hub").selectOption(fields.linkRule);
  await form.getByRole("button", { name: "Adicionar" }).click();
  const label = fields.name ?? { google: "Google", microsoft: "Microsoft", govbr: "gov.br", oidc: "OpenID Connect" }[fields.kind];
  await expect(form.getByRole("status")).toHaveText(`${label} adicionado. O segredo foi guardado cifrado e não será mostrado de novo.`);
}

/** /gestao pessoas' own form, with a CPF (e2e/fixtures.ts's addPerson has none). */
async function addPersonWithCpf(page: Page, schoolId: string, p: TPerson) {
  await page.goto(`/gestao/${schoolId}/pessoas`);
  const form = page.getByRole("form", { name: "Cadastrar pessoa" });
  await form.getByLabel("Nome completo").fill(p.name);
  await form.getByLabel("Perfil").selectOption("responsavel");
  await form.getByLabel("CPF").fill(`${p.cpf!.slice(0, 3)}.${p.cpf!.slice(3, 6)}.${p.cpf!.slice(6, 9)}-${p.cpf!.slice(9)}`);
  await form.getByLabel("E-mail").fill(p.email);
  await form.getByLabel("Senha inicial").fill(PASSWORD);
  await form.getByRole("button", { name: "Cadastrar" }).click();
  await expect(form.getByRole("status")).toHaveText("Pessoa cadastrada.");
}

async function sessionOf(request: APIRequestContext): Promise<{ personId?: string; profileId?: string | null }> {
  return (await (await request.get("/api/auth/session")).json()) as { personId?: string; profileId?: string | null };
}

async function cookieNames(context: APIRequestContext | BrowserContext): Promise<string[]> {
  return (await context.storageState()).cookies.map((c) => c.name);
}

async function expectNoSession(context: APIRequestContext | BrowserContext, request: APIRequestContext): Promise<void> {
  expect(await cookieNames(context)).not.toContain(SESSION_COOKIE);
  expect(await sessionOf(request)).toEqual({});
}

/** GET /entrar/com/{provider} in `request`: the authorization request at the provider (the pending cookie stays in `request`). */
async function startAt(request: APIRequestContext, preset: TUpstreamPreset, query = ""): Promise<string> {
  const start = await request.get(`/entrar/com/${providerIds[preset]}${query}`, { maxRedirects: 0 });
  expect(start.status()).toBe(303);
  const location = start.headers().location!;
  expect(location.startsWith(`${providers[preset].issuer}/auth?`), location).toBe(true);
  expect(await cookieNames(request)).toContain("hub-upstream");
  return location;
}

/** The hub's callback opened with `request`, not followed. */
function openCallback(request: APIRequestContext, callback: URL): Promise<APIResponse> {
  expect(callback.origin + callback.pathname).toBe(`${baseURL}/entrar/retorno`);
  return request.get(callback.pathname + callback.search, { maxRedirects: 0 });
}

/** A whole sign-in without a browser: start, the provider's login form as `login`, the callback. */
async function apiSignIn(preset: TUpstreamPreset, login: string, request?: APIRequestContext): Promise<{ request: APIRequestContext; callback: URL; answer: APIResponse }> {
  const own = request ?? (await freshApi());
  const callback = await signInHeadless(await startAt(own, preset), login);
  return { request: own, callback, answer: await openCallback(own, callback) };
}

async function expectSignedIn(request: APIRequestContext, answer: APIResponse, p: TPerson): Promise<void> {
  expect(answer.status()).toBe(303);
  // Everyone here has one profile: chosen at sign-in, and on to the callback URL ("/") with no picker hop.
  const location = new URL(answer.headers().location!, baseURL);
  expect(location.href).toBe(`${baseURL}/`);
  expect(await cookieNames(request)).toContain(SESSION_COOKIE);
  const session = await sessionOf(request);
  expect(session.personId).toBe(p.personId);
  expect(session.profileId).toEqual(expect.any(String));
}

/** The callback's answer is the refusal page of `motivo`, which says so, and `request` has no session. */
async function expectRefused(request: APIRequestContext, answer: APIResponse, motivo: TMotivo): Promise<void> {
  expect(answer.status(), await answer.text()).toBe(303);
  const location = new URL(answer.headers().location!, baseURL);
  expect(location.pathname + location.search).toBe(`/entrar/recusado?motivo=${motivo}`);
  const page = await request.get(location.pathname + location.search);
  expect(page.status()).toBe(200);
  expect(await page.text()).toContain(`>${REFUSAL_HEADING[motivo]}</h1>`);
  await expectNoSession(request, request);
}

/** At the provider's own login page (oidc-provider's development form): signs in as `login`. */
async function signInAtProvider(page: Page, preset: TUpstreamPreset, login: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.href.startsWith(`${providers[preset].issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("qualquer-coisa");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

/** The school's sign-in link, the preset's button, the provider's login page, and back home signed in. */
async function browserSignIn(page: Page, preset: TUpstreamPreset, p: TPerson): Promise<void> {
  await page.goto(`/login?escola=${ids.school}`);
  await page.getByRole("list", { name: "Entrar com a conta da rede" }).getByRole("link", { name: BUTTON[preset], exact: true }).click();
  await signInAtProvider(page, preset, p.login);
  await expect(page.getByRole("heading", { level: 1, name: `Olá, ${p.name.split(" ")[0]}` })).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);
  expect(await cookieNames(page.context())).toContain(SESSION_COOKIE);
  expect((await sessionOf(page.request)).personId).toBe(p.personId);
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  testInfo.setTimeout(180_000);
  baseURL = new URL(testInfo.project.use.baseURL!).origin;
  requests = playwright.request;
  const redirect = `${baseURL}/entrar/retorno`;
  for (const preset of ["google", "microsoft", "govbr", "oidc"] as const) {
    secrets[preset] = SECRET(preset);
    providers[preset] = await startUpstreamProvider({
      preset,
      accounts: ACCOUNTS[preset],
      ...(preset === "microsoft" ? { tenantId: TENANT } : {}),
      clients: [
        {
          client_id: CLIENT_ID(preset),
          client_secret: secrets[preset],
          redirect_uris: [redirect],
          // The hub sends Entra's secret in the body, the others' by HTTP Basic.
          ...(preset === "microsoft" ? { token_endpoint_auth_method: "client_secret_post" as const } : {}),
        },
      ],
    });
  }
  secrets.other = SECRET("vizinha");

  const context = await browser.newContext({ baseURL, locale: "pt-BR" });
  try {
    const page = await context.newPage();
    await signedIn(page, MANAGER);
    ids.network = await createUnit(page, NETWORK, "network", DEMO_NETWORK);
    ids.school = await createUnit(page, SCHOOL, "school", `— ${NETWORK}`);
    ids.otherNetwork = await createUnit(page, OTHER_NETWORK, "network", DEMO_NETWORK);
    ids.otherSchool = await createUnit(page, `EMEF Vizinha ${tag}`, "school", `— ${OTHER_NETWORK}`);

    // The network's IT types what each provider gave them (docs/sign-in.md).
    await addProvider(page, ids.network, { kind: "google", issuer: providers.google.issuer, clientId: CLIENT_ID("google"), secret: secrets.google!, domains: DOMAIN.google });
    await addProvider(page, ids.network, {
      kind: "microsoft",
      tenantId: TENANT,
      issuer: providers.microsoft.issuer,
      clientId: CLIENT_ID("microsoft"),
      secret: secrets.microsoft!,
      domains: DOMAIN.microsoft,
    });
    await addProvider(page, ids.network, { kind: "govbr", issuer: providers.govbr.issuer, clientId: CLIENT_ID("govbr"), secret: secrets.govbr! });
    await addProvider(page, ids.network, { kind: "oidc", name: OIDC_NAME, issuer: providers.oidc.issuer, clientId: CLIENT_ID("oidc"), secret: secrets.oidc!, domains: DOMAIN.oidc, linkRule: "email" });
    // Another network's Google: its button is on the hub's /login, never on this school's link.
    await addProvider(page, ids.otherNetwork, { kind: "google", issuer: providers.google.issuer, clientId: `hub-vizinha-${tag}`, secret: secrets.other, domains: `vizinha${tag}.edu.br` });

    await page.goto(`/gestao/${ids.network}/entrada`);
    for (const [preset, name] of [["google", "Google"], ["microsoft", "Microsoft"], ["govbr", "gov.br"], ["oidc", OIDC_NAME]] as const) {
      providerIds[preset] = await page.locator("li", { has: page.getByRole("button", { name: `Desativar ${name}`, exact: true }) }).locator('input[name="providerId"]').first().inputValue();
      expect(providerIds[preset]).toMatch(UUID);
    }

    for (const p of [person.gabriela, person.marcos, person.olga, person.lia, person.rui]) {
      await addPerson(page, ids.school, { name: p.name, role: p === person.marcos ? "professor" : "aluno", email: p.email, password: PASSWORD });
    }
    await addPersonWithCpf(page, ids.school, person.rosa);
    // The demo tool (Edtech Demo, linked at the demo network above) for the whole school.
    await placeTool(page, ids.school, "Ferramenta de Demonstração — Edtech Demo");
  } finally {
    await context.close();
  }

  // Each person's id, from a password sign-in.
  for (const p of Object.values(person)) {
    const request = await requests.newContext({ baseURL });
    try {
      await signInByForm(request, baseURL, p.email, "/", PASSWORD);
      p.personId = (await sessionOf(request)).personId;
      expect(p.personId).toMatch(UUID);
    } finally {
      await request.dispose();
    }
  }
});

test.afterEach(async () => {
  for (const context of opened.splice(0)) await context.dispose();
});

test.afterAll(async () => {
  for (const provider of Object.values(providers)) await provider.close();
});

test("the manager's form keeps each provider without ever showing its secret; the rule history shows who created it", async ({ page }) => {
  await signedIn(page, MANAGER);
  await page.goto(`/gestao/${ids.network}/entrada`);
  await expect(page.getByRole("heading", { name: "Entrada com contas da rede" })).toBeVisible();
  await expect(page.getByText(`${baseURL}/entrar/retorno`, { exact: true })).toBeVisible();
  await expect(page.getByText(`${baseURL}/login?escola=${ids.network}`, { exact: true })).toBeVisible();
  for (const preset of ["google", "microsoft", "govbr", "oidc"] as const) {
    const row = page.locator("li", { has: page.getByRole("button", { name: /^Desativar / }) }).filter({ hasText: CLIENT_ID(preset) });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(providers[preset].issuer);
    await expect(row).toContainText("Ativa");
  }
  // Neither the page as shown nor as served carries a secret (the edit forms leave it blank).
  const served = await (await page.request.get(`/gestao/${ids.network}/entrada`)).text();
  const shown = await page.content();
  for (const secret of Object.values(secrets)) {
    expect(served).not.toContain(secret);
    expect(shown).not.toContain(secret);
  }
  await page.goto(`/gestao/${ids.otherNetwork}/entrada`);
  expect(await page.content()).not.toContain(secrets.other);

  // Who created each one, when, and the settings after (never the secret).
  await page.goto(`/gestao/${ids.network}/acessos/regras`);
  const history = page.getByRole("table", { name: "Mudanças nas regras de compartilhamento" });
  for (const preset of ["google", "microsoft", "govbr", "oidc"] as const) {
    const row = history.getByRole("row").filter({ hasText: CLIENT_ID(preset) });
    await expect(row).toHaveCount(1);
    const cells = row.getByRole("cell");
    await expect(cells.nth(0)).toHaveText(/^\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}:\d{2}$/);
    await expect(cells.nth(1)).toHaveText(MANAGER_NAME);
    await expect(cells.nth(2)).toContainText("Forma de entrada");
    await expect(cells.nth(4)).toContainText("Não existia");
    await expect(cells.nth(5)).toContainText("Situação: ativa");
    await expect(cells.nth(5)).toContainText(`Emissor: ${providers[preset].issuer}`);
    await expect(cells.nth(5)).toContainText(`Client ID: ${CLIENT_ID(preset)}`);
  }
  const microsoft = history.getByRole("row").filter({ hasText: CLIENT_ID("microsoft") }).getByRole("cell").nth(5);
  await expect(microsoft).toContainText(`Locatário: ${TENANT}`);
  await expect(microsoft).toContainText(`Vínculo: e-mail verificado (${DOMAIN.microsoft})`);
  await expect(history.getByRole("row").filter({ hasText: CLIENT_ID("govbr") }).getByRole("cell").nth(5)).toContainText("Vínculo: CPF");
  expect(await page.content()).not.toContain(secrets.google);
});

test.describe("signing in with each provider from the school's sign-in link", () => {
  for (const [preset, who] of [["google", "gabriela"], ["microsoft", "marcos"], ["govbr", "rosa"], ["oidc", "olga"]] as const) {
    test(`${preset}: the school's link shows the network's buttons; the provider's login page, then home signed in as the person`, async ({ browser }) => {
      const page = await newPage(browser);
      await page.goto(`/login?escola=${ids.school}`);
      // Only the school's networks' buttons: this network's four.
      const buttons = page.getByRole("list", { name: "Entrar com a conta da rede" }).getByRole("link");
      await expect(buttons).toHaveText([BUTTON.google, BUTTON.microsoft, BUTTON.govbr, BUTTON.oidc]);
      await browserSignIn(page, preset, person[who]);
      await page.context().close();
    });
  }

  test("another network's button is on the hub's /login but not on this school's link", async ({ page }) => {
    await page.goto(`/login?escola=${ids.school}`);
    const buttons = page.getByRole("list", { name: "Entrar com a conta da rede" });
    await expect(buttons.getByRole("link", { name: BUTTON.google, exact: true })).toBeVisible();
    await expect(buttons.getByRole("link", { name: new RegExp(OTHER_NETWORK) })).toHaveCount(0);
    expect(await buttons.getByRole("link").count()).toBe(4);

    // The hub's own page has every network's; two Googles are told apart by their networks.
    await page.goto("/login");
    await expect(buttons.getByRole("link", { name: `Entrar com Google (${OTHER_NETWORK})` })).toBeVisible();
    await expect(buttons.getByRole("link", { name: `Entrar com Google (${NETWORK})` })).toBeVisible();

    // And the other network's own school shows its Google only.
    await page.goto(`/login?escola=${ids.otherSchool}`);
    await expect(buttons.getByRole("link")).toHaveCount(1);
    expect(await buttons.getByRole("link").getAttribute("href")).not.toContain(providerIds.google);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the generic provider's button is a link, and the way back a redirect", async ({ page }) => {
      await browserSignIn(page, "oidc", person.olga);
    });
  });

  test.describe("at 390 px wide", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the sign-in pages with the network's buttons do not scroll sideways", async ({ page }) => {
      for (const path of [`/login?escola=${ids.school}`, "/login"]) {
        await page.goto(path);
        await expect(page.getByRole("link", { name: new RegExp(`^${BUTTON.google}`) }).first()).toBeVisible();
        const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        expect(scroll, `${path} scrolls sideways (${scroll} px of content in ${client} px)`).toBeLessThanOrEqual(client);
      }
    });
  });
});

test("an e-mail of the network's domain typed with no password goes to its provider, with login_hint", async ({ page, browser }) => {
  // On the hub's plain page, among every network's providers: the domain names one.
  await page.goto("/login");
  const authorization = page.waitForRequest((request) => request.url().startsWith(`${providers.microsoft.issuer}/auth?`));
  await page.getByLabel("E-mail ou CPF").fill(person.marcos.email);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  expect(new URL((await authorization).url()).searchParams.get("login_hint")).toBe(person.marcos.email);
  await expect(page).toHaveURL((url) => url.href.startsWith(`${providers.microsoft.issuer}/interaction/`));
  await expect(page.locator('input[name="login"]')).toHaveValue(person.marcos.email);
  await page.locator('input[name="password"]').fill("qualquer-coisa");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Olá, Marcos" })).toBeVisible();
  expect((await sessionOf(page.request)).personId).toBe(person.marcos.personId);

  // The school's own link does the same for its networks' domains.
  const other = await newPage(browser);
  await other.goto(`/login?escola=${ids.school}`);
  await other.getByLabel("E-mail ou CPF").fill(person.gabriela.email);
  await other.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(other).toHaveURL((url) => url.href.startsWith(`${providers.google.issuer}/interaction/`));
  await expect(other.locator('input[name="login"]')).toHaveValue(person.gabriela.email);
  await other.context().close();
});

test.describe("refusals: each lands on its page and signs nobody in", () => {
  test("id tokens the provider's answer must not be trusted with: wrong issuer, audience, expired, replayed nonce, alg none, unknown key, bad signature", async () => {
    // The same flow, honest, signs Rui in: what refuses below is the forgery alone. (It also
    // gives replay-previous-nonce an earlier flow's nonce.)
    const honest = await apiSignIn("google", person.rui.login);
    await expectSignedIn(honest.request, honest.answer, person.rui);
    const modes: TIdTokenTamperMode[] = ["wrong-issuer", "wrong-audience", "expired", "replay-previous-nonce", "alg-none", "unknown-key", "bad-signature"];
    for (const mode of modes) {
      providers.google.setTamper(mode);
      try {
        const { request, answer } = await apiSignIn("google", person.rui.login);
        await test.step(mode, () => expectRefused(request, answer, "resposta"));
      } finally {
        providers.google.setTamper(null);
      }
    }
  });

  test("the return must be this browser's, once: a foreign state, another browser, a reused code", async () => {
    // A state that is not the one sealed in this browser's cookie.
    const forged = await freshApi();
    const forgedCallback = await signInHeadless(await startAt(forged, "google"), person.rui.login);
    forgedCallback.searchParams.set("state", randomBytes(32).toString("base64url"));
    await expectRefused(forged, await openCallback(forged, forgedCallback), "estado");

    // The return URL opened in another browser: refused there; the browser that started still finishes.
    const started = await freshApi();
    const callback = await signInHeadless(await startAt(started, "google"), person.rui.login);
    const pending = (await started.storageState()).cookies.find((c) => c.name === "hub-upstream")!;
    const elsewhere = await freshApi();
    await expectRefused(elsewhere, await openCallback(elsewhere, callback), "estado");
    await expectSignedIn(started, await openCallback(started, callback), person.rui);

    // The same return URL again: in the same browser (its pending cookie is gone), or with the
    // pending cookie put back: refused before the code goes to the provider again.
    const tokens = providers.google.counts.token;
    const again = await freshApi();
    await expectRefused(again, await openCallback(again, callback), "estado");
    const replay = await requests.newContext({ baseURL, storageState: { cookies: [pending], origins: [] } });
    opened.push(replay);
    await expectRefused(replay, await openCallback(replay, callback), "estado");
    expect(providers.google.counts.token).toBe(tokens);
  });

  test("accounts that are not the network's person: unverified e-mail, foreign e-mail, Google without hd, another Entra tenant, nobody in the hub", async () => {
    for (const [preset, login, motivo] of [
      ["google", "rui-nao-verificado", "nao-verificado"],
      ["google", `carla@${FOREIGN_DOMAIN}`, "dominio"],
      ["google", "rui-sem-hd", "dominio"],
      ["microsoft", "marcos-outro-locatario", "dominio"],
      ["google", `ninguem@${DOMAIN.google}`, "desconhecido"],
    ] as const) {
      const { request, answer } = await apiSignIn(preset, login);
      await test.step(`${preset} ${login}`, () => expectRefused(request, answer, motivo));
    }
  });

  test("a provider disabled while the person is at it: the return is refused, and so is a new start", async ({ page }) => {
    const request = await freshApi();
    const callback = await signInHeadless(await startAt(request, "oidc"), person.olga.login);
    // The school's sign-in page, twice (the second is the kept page: docs/decisions/044), shows the button.
    for (let i = 0; i < 2; i++) expect(await (await request.get(`/login?escola=${ids.school}`)).text()).toContain(BUTTON.oidc);
    await signedIn(page, MANAGER);
    await page.goto(`/gestao/${ids.network}/entrada`);
    await page.getByRole("button", { name: `Desativar ${OIDC_NAME}`, exact: true }).click();
    await expect(page.getByRole("button", { name: `Ativar ${OIDC_NAME}`, exact: true })).toBeVisible();
    try {
      await expectRefused(request, await openCallback(request, callback), "desativado");
      const restart = await request.get(`/entrar/com/${providerIds.oidc}`, { maxRedirects: 0 });
      expect(restart.status()).toBe(303);
      expect(restart.headers().location).toMatch(/\/entrar\/recusado\?motivo=desativado$/);
      const login = await request.get(`/login?escola=${ids.school}`);
      expect(await login.text()).not.toContain(BUTTON.oidc);
    } finally {
      await page.getByRole("button", { name: `Ativar ${OIDC_NAME}`, exact: true }).click();
      await expect(page.getByRole("button", { name: `Desativar ${OIDC_NAME}`, exact: true })).toBeVisible();
    }
    expect(await (await request.get(`/login?escola=${ids.school}`)).text()).toContain(BUTTON.oidc);
  });

  test("the person cancels at the provider (error=access_denied)", async ({ page }) => {
    await page.goto(`/login?escola=${ids.school}`);
    await page.getByRole("link", { name: BUTTON.google, exact: true }).click();
    await expect(page).toHaveURL((url) => url.href.startsWith(`${providers.google.issuer}/interaction/`));
    await page.getByRole("link", { name: "[ Cancel ]" }).click();
    await expect(page).toHaveURL(`${baseURL}/entrar/recusado?motivo=provedor`);
    await expect(page.getByRole("heading", { level: 1, name: REFUSAL_HEADING.provedor })).toBeVisible();
    await expectNoSession(page.context(), page.request);
  });
});

test("after a Google sign-in the tool launch and the partner's OAuth get the same user_id as after the password", async ({ browser }) => {
  const p = person.gabriela;
  const identifiers = async (page: Page) => {
    const href = await page.getByRole("link", { name: "Abrir Ferramenta de Demonstração" }).first().getAttribute("href");
    const { fields } = await captureLaunchForm(page.request, href!);
    const launchUserId = fields.find(([name]) => name === "user_id")?.[1];
    const query = new URLSearchParams({ client_id: "demo-app", redirect_uri: `${baseURL}/demo-app/callback`, response_type: "code", scope: "user.info", state: "mesmo-id" });
    const authorized = await page.request.get(`/lti/v1/oauth2/authorize?${query}`, { maxRedirects: 0 });
    expect(authorized.status()).toBe(302);
    const oauthUserId = new URL(authorized.headers().location!).searchParams.get("user_id");
    expect(launchUserId).toMatch(UUID);
    expect(oauthUserId).toMatch(UUID);
    return { launchUserId, oauthUserId, profileId: (await sessionOf(page.request)).profileId };
  };

  const withPassword = await newPage(browser);
  await signIn(withPassword, p.email, PASSWORD);
  await expect(withPassword.getByRole("heading", { level: 1, name: "Olá, Gabriela" })).toBeVisible();
  const byPassword = await identifiers(withPassword);
  await withPassword.context().close();

  const withGoogle = await newPage(browser);
  await browserSignIn(withGoogle, "google", p);
  expect(await identifiers(withGoogle)).toEqual(byPassword);
  await withGoogle.context().close();
});

test("linked accounts: shown to the person and the manager, unlinked, refused, linked again from Meus dados", async ({ page, browser }) => {
  const p = person.lia;
  const accountLabel = `Desvincular Google (${p.email})`;

  // The first Google sign-in links the account.
  const first = await newPage(browser);
  await browserSignIn(first, "google", p);
  await first.goto("/meus-dados");
  const mine = first.getByRole("region", { name: "Contas vinculadas" });
  await expect(mine.getByRole("listitem").filter({ hasText: p.email })).toContainText("Google");

  // The manager sees it on the person's page.
  await signedIn(page, MANAGER);
  await page.goto(`/gestao/${ids.school}/pessoas?q=${encodeURIComponent(p.email)}`);
  await page.getByRole("link", { name: p.name, exact: true }).click();
  await expect(page.getByRole("heading", { name: p.name })).toBeVisible();
  const managed = page.getByRole("region", { name: "Contas vinculadas" });
  await expect(managed).toContainText(`Google · ${p.email}`);

  // Unlinked by the person: gone for both.
  await mine.getByRole("button", { name: accountLabel }).click();
  await expect(first).toHaveURL(/\/meus-dados\?conta=desvinculada/);
  await expect(mine.getByRole("status")).toHaveText("Conta desvinculada: ela não entra mais no Hub como você.");
  await expect(mine.getByText("Nenhuma conta vinculada.")).toBeVisible();
  await page.reload();
  await expect(managed).not.toContainText(p.email);
  await first.context().close();

  // The next Google sign-in is refused, and signs nobody in.
  const second = await newPage(browser);
  await second.goto(`/login?escola=${ids.school}`);
  await second.getByRole("link", { name: BUTTON.google, exact: true }).click();
  await signInAtProvider(second, "google", p.login);
  await expect(second).toHaveURL(`${baseURL}/entrar/recusado?motivo=desvinculada`);
  await expect(second.getByRole("heading", { level: 1, name: REFUSAL_HEADING.desvinculada })).toBeVisible();
  await expectNoSession(second.context(), second.request);

  // Signed in with the password, Lia links it again from Meus dados (still signed in at Google: no form there).
  await signIn(second, p.email, PASSWORD);
  await second.goto("/meus-dados");
  await second.getByRole("link", { name: "Vincular conta Google", exact: true }).click();
  await expect(second).toHaveURL(`${baseURL}/meus-dados`);
  await expect(second.getByRole("region", { name: "Contas vinculadas" }).getByRole("button", { name: accountLabel })).toBeVisible();
  await second.context().close();

  // And Google signs her in again.
  const third = await newPage(browser);
  await browserSignIn(third, "google", p);
  await third.context().close();
});

test("the school's usage page counts the Google sign-ins", async ({ page }) => {
  await signedIn(page, MANAGER);
  const googleSignIns = async () => {
    await page.goto(`/gestao/${ids.school}/uso`);
    const row = page.getByTestId("sign-ins-by-method").getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Google", exact: true }) });
    return (await row.count()) === 0 ? 0 : Number((await row.getByRole("cell").first().innerText()).replace(/\D/g, ""));
  };
  const before = await googleSignIns();
  const { request, answer } = await apiSignIn("google", person.gabriela.login);
  await expectSignedIn(request, answer, person.gabriela);
  expect(await googleSignIns()).toBe(before + 1);
});

test("discovery is read once for many sign-ins with the same provider", async () => {
  const tokens = providers.google.counts.token;
  for (let i = 0; i < 3; i++) {
    const { request, answer } = await apiSignIn("google", person.gabriela.login);
    await expectSignedIn(request, answer, person.gabriela);
  }
  expect(providers.google.counts.token).toBe(tokens + 3);
  // Whatever this worker's earlier tests did with this provider, the hub read its discovery
  // document once (cached an hour; nothing changed the provider's settings).
  expect(providers.google.counts.discovery).toBe(1);
});
