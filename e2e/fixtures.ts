import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type APIRequestContext, type Browser, type BrowserContext, type Cookie, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "hub-demo";

/** Signs in through the real form, as a person would. */
export async function signIn(page: Page, login: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/login");
  await fillSignIn(page, login, password);
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Signs in with the sign-in form's own POST, without a page (API contexts; a page's `request`
 * shares the cookie with the page): the hub answers 303 and sets the session cookie.
 */
export async function signInByForm(request: APIRequestContext, baseURL: string, login: string, callbackUrl = "/", password = DEMO_PASSWORD): Promise<void> {
  const response = await request.post("/entrar", { form: { login, password, callbackUrl }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
}

// Session cookies of the sign-ins made by signedIn in this worker, by login. A session is a
// sealed cookie that lasts 8 hours and holds no server-side state, so a copy stays valid.
const sessions = new Map<string, Cookie[]>();

/**
 * Gives the page's context `login`'s session, for a test whose subject comes after the sign-in:
 * the first time in a worker through the sign-in form's POST (signInByForm), then with the same
 * cookie, and without loading a page (the test goes where it needs). Signing in through the
 * form's page, as a person does, is signIn's; forms, accessibility, portal and launch specs use it.
 * For the suite's own server (the config's baseURL), not one a spec starts itself.
 */
export async function signedIn(page: Page, login: string, password = DEMO_PASSWORD): Promise<void> {
  const context = page.context();
  const who = `${login}\n${password}`;
  const known = sessions.get(who);
  if (known) return context.addCookies(known);
  await signInByForm(page.request, new URL(base.info().project.use.baseURL ?? "").origin, login, "/", password);
  const cookies = (await context.cookies()).filter((cookie) => cookie.name.endsWith("next-auth.session-token"));
  expect(cookies).toHaveLength(1);
  sessions.set(who, cookies);
}

/** Fills and submits the sign-in form on the page already shown. */
export async function fillSignIn(page: Page, login: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel("E-mail ou CPF").fill(login);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

/**
 * A school's slow network: every script of the page and next-auth's session endpoint arrive
 * `ms` late, so whatever the person does first happens before the page has hydrated.
 */
export async function slowScripts(page: Page, ms = 3_000): Promise<void> {
  await page.route(/\/_next\/static\/.*\.js(\?|$)|\/api\/auth\/session/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.fallback();
  });
}

const decodeHtml = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The signed LTI launch form served by GET /launch/{id}: its action and fields, HTML entities decoded. */
export async function captureLaunchForm(request: APIRequestContext, href: string): Promise<{ action: string; fields: [string, string][] }> {
  const response = await request.get(href);
  expect(response.status()).toBe(200);
  const html = await response.text();
  const action = decodeHtml(/<form id="lti-launch" method="post" action="([^"]*)"/.exec(html)?.[1] ?? "");
  const fields = [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m): [string, string] => [decodeHtml(m[1]!), decodeHtml(m[2]!)]);
  expect(fields.map(([name]) => name)).toContain("oauth_signature");
  return { action, fields };
}

/** Now in the hub's time zone, in the Data API's date format. */
export function hubNow(): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })
      .formatToParts(new Date())
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}/${parts.month}/${parts.day}+${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Creates an institution in /gestao as the signed-in manager, under `parentLabel`; returns its id. */
export async function createUnit(page: Page, name: string, kind: "school" | "network", parentLabel: string): Promise<string> {
  await page.goto("/gestao");
  const form = page.getByRole("form", { name: "Nova unidade" });
  await form.getByLabel("Nome").fill(name);
  await form.getByLabel("Tipo").selectOption(kind);
  await form.getByLabel("Fica abaixo de").selectOption({ label: parentLabel });
  await form.getByRole("button", { name: "Criar unidade" }).click();
  await expect(form.getByRole("status")).toHaveText("Unidade criada.");
  await page.goto("/gestao");
  const href = await page.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name, exact: true }).getAttribute("href");
  return href!.split("/")[2]!;
}

/**
 * A corner of the demo for one tool: its edtech linked at `networkId` (in /gestao aplicativos)
 * and the tool placed at `schoolId`, as the signed-in manager.
 */
export async function linkEdtechAndPlaceTool(page: Page, options: { networkId: string; schoolId: string; edtech: string; tool: string }): Promise<void> {
  await page.goto(`/gestao/${options.networkId}/aplicativos`);
  const link = page.getByRole("form", { name: "Vincular edtech" });
  await link.getByLabel("Edtech").selectOption({ label: options.edtech });
  await link.getByRole("button", { name: "Vincular edtech" }).click();
  await expect(page.getByRole("button", { name: `Desvincular ${options.edtech}` })).toBeVisible();

  await placeTool(page, options.schoolId, `${options.tool} — ${options.edtech}`);
}

/** Places a tool (its option label, "Tool — Edtech") for the whole school, as the signed-in manager. */
export async function placeTool(page: Page, schoolId: string, label: string): Promise<void> {
  await page.goto(`/gestao/${schoolId}/ferramentas`);
  const place = page.getByRole("form", { name: "Disponibilizar ferramenta" });
  await place.getByLabel("Ferramenta").selectOption({ label });
  await place.getByRole("button", { name: "Disponibilizar" }).click();
  await expect(place.getByRole("status")).toHaveText("Ferramenta disponibilizada.");
}

/** Registers a person with an initial password at `schoolId` in /gestao pessoas. */
export async function addPerson(page: Page, schoolId: string, person: { name: string; role: "aluno" | "professor"; email: string; password: string }): Promise<void> {
  await page.goto(`/gestao/${schoolId}/pessoas`);
  const form = page.getByRole("form", { name: "Cadastrar pessoa" });
  await form.getByLabel("Nome completo").fill(person.name);
  await form.getByLabel("Perfil").selectOption(person.role);
  await form.getByLabel("E-mail").fill(person.email);
  await form.getByLabel("Senha inicial").fill(person.password);
  await form.getByRole("button", { name: "Cadastrar" }).click();
  await expect(form.getByRole("status")).toHaveText("Pessoa cadastrada.");
}

/** A real solid-colour PNG, built here so the test needs no fixture files. */
export function png(width = 64, height = 64): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x2a)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

// The docs' screenshots are refreshed on request (UPDATE_SCREENSHOTS=1 npm test -- --only=e2e);
// ordinary runs write them under .tmp so a test run leaves the work tree clean.
const SHOTS = process.env.UPDATE_SCREENSHOTS === "1" ? "docs/screenshots" : ".tmp/screenshots";

/** A full-page screenshot named `name` (docs/screenshots/<name>.png when UPDATE_SCREENSHOTS=1). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: "disabled" });
}

// ---------------------------------------------------------------- accessibility on every page

/** WCAG 2.1 A and AA rules; a violation of impact serious or critical fails the test. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const FAILING_IMPACTS = new Set(["serious", "critical"]);
const AXE_TIMEOUT_MS = 20_000;

interface TAxeFinding {
  url: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

// Kinds of page (path with ids blanked, query names only) claimed for analysis in this run, by
// any worker: every navigation of the suite is seen, but each kind of page is analysed once. A
// claim is a file named by the kind in the project's output directory, which Playwright empties
// at the start of each run; creating it with "wx" fails if another worker claimed the kind first.
class PageClaims {
  private readonly dir: string;
  constructor(outputDir: string) {
    this.dir = path.join(outputDir, "axe-pages");
    mkdirSync(this.dir, { recursive: true });
  }
  private file(kind: string): string {
    return path.join(this.dir, createHash("sha256").update(kind).digest("hex").slice(0, 32));
  }
  claim(kind: string): boolean {
    try {
      writeFileSync(this.file(kind), kind, { flag: "wx" });
      return true;
    } catch {
      return false;
    }
  }
  release(kind: string): void {
    rmSync(this.file(kind), { force: true });
  }
}
// Analyses dropped because the page navigated while axe read it, per kind of page: a page that
// always moves on by itself (the launch page posts its form at once) is tried this many times.
const droppedAnalyses = new Map<string, number>();
const MAX_DROPPED_ANALYSES = 3;
const pageKind = (url: URL) =>
  `${url.pathname.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ":id").replace(/\/cracha\/[A-Za-z0-9_-]{20,}/, "/cracha/:token")}?${[...url.searchParams.keys()].sort().join("&")}`;

/** Runs axe after every load of a hub page, and after every client-side navigation, in the contexts it watches; the findings are read at the end. */
class AxeWatch {
  readonly findings: TAxeFinding[] = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly served = new WeakMap<Page, boolean>();
  // Main-frame navigations per page: an analysis during which the page navigated saw neither page.
  private readonly navigations = new WeakMap<Page, number>();

  constructor(
    private readonly origin: string,
    private readonly claims: PageClaims,
  ) {}

  watch(context: BrowserContext): void {
    const onPage = (page: Page) => {
      // Only documents the hub served (server.mjs stamps X-Request-Id on every answer): pages a
      // test fulfils itself with page.route (a stand-in relying party, say) are not the product.
      page.on("response", (response) => {
        if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) this.served.set(page, response.headers()["x-request-id"] !== undefined);
      });
      page.on("load", () => this.check(page));
      // Next's client-side navigations (a <Link> clicked) change the page without a load event:
      // the page is checked once it has rendered (its URL changes after the new tree is committed).
      page.on("framenavigated", (frame) => {
        if (frame !== page.mainFrame()) return;
        this.navigations.set(page, (this.navigations.get(page) ?? 0) + 1);
        page.waitForLoadState("load").then(() => this.check(page), () => undefined);
      });
    };
    context.pages().forEach(onPage);
    context.on("page", onPage);
  }

  private check(page: Page): void {
    const url = new URL(page.url());
    if (url.origin !== this.origin || this.served.get(page) === false) return;
    const kind = pageKind(url);
    if ((droppedAnalyses.get(kind) ?? 0) >= MAX_DROPPED_ANALYSES || !this.claims.claim(kind)) return;
    this.chain = this.chain.then(async () => {
      let started = false;
      try {
        if (page.isClosed() || page.url() !== url.href || (await page.evaluate(() => document.contentType)) !== "text/html") throw new Error("moved on");
        const navigations = this.navigations.get(page) ?? 0;
        started = true;
        // Violations only (no passes to collect), and never longer than AXE_TIMEOUT_MS: a page
        // whose context the test closed mid-analysis does not answer.
        const results = await Promise.race([
          new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ["violations"] }).analyze(),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error("axe timed out")), AXE_TIMEOUT_MS)),
        ]);
        // A click the test made meanwhile (a Next client navigation) swaps the tree and its <title>
        // in steps: what axe read was half of each page, not either one.
        if ((this.navigations.get(page) ?? 0) !== navigations || page.url() !== url.href) throw new Error("moved on");
        for (const v of results.violations) {
          if (!FAILING_IMPACTS.has(v.impact ?? "")) continue;
          this.findings.push({ url: url.pathname + url.search, rule: v.id, impact: v.impact!, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) });
        }
      } catch {
        // The page went on (navigated, or was closed, or runs without JavaScript) before axe
        // finished: the kind stays unchecked, so its next load is analysed.
        this.claims.release(kind);
        if (started) droppedAnalyses.set(kind, (droppedAnalyses.get(kind) ?? 0) + 1);
      }
    });
  }

  settled(): Promise<void> {
    return this.chain;
  }
}

/**
 * The browser suite's `test`: every page a test loads, in its own page and in every context it
 * opens with `browser.newContext()`, is checked with axe, and the test fails on a serious or
 * critical WCAG 2.1 AA violation, listing the page, the rule and the elements.
 */
export const test = base.extend<{ axeEveryPage: void }>({
  axeEveryPage: [
    async ({ context, browser, baseURL }, runTest, testInfo) => {
      if (testInfo.project.name !== "browser" || !baseURL) return runTest();
      const axe = new AxeWatch(new URL(baseURL).origin, new PageClaims(testInfo.project.outputDir));
      axe.watch(context);
      const newContext = browser.newContext.bind(browser);
      const patched = browser as Browser & { newContext: Browser["newContext"] };
      patched.newContext = async (...args) => {
        const created = await newContext(...args);
        axe.watch(created);
        return created;
      };
      try {
        await runTest();
      } finally {
        patched.newContext = newContext;
      }
      await axe.settled();
      const report = axe.findings.map((f) => `${f.impact} ${f.rule} on ${f.url}: ${f.help} — ${f.targets.join(", ")}`).join("\n");
      expect(axe.findings, `axe found serious or critical violations:\n${report}`).toEqual([]);
    },
    // Its own time budget: the analyses still queued when the test ends are awaited here.
    { auto: true, timeout: 120_000 },
  ],
});
export { expect };
