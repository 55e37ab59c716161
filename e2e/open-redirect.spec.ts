// Open-redirect probes: every way the hub takes a return address (the sign-in form, the profile
// picker, /perfil, /login and next-auth's own callbackUrl) is given addresses that leave the hub
// in a browser (tab, CR, LF, backslash, scheme-relative, javascript:, encoded slashes). Every
// Location the hub answers, resolved the way a browser resolves it (WHATWG URL: tabs and
// newlines dropped, backslash read as slash), must stay on the hub's origin.
import { expect, fillSignIn, test } from "./fixtures";

const PROBES = [
  "/\t/evil.example",
  "/\r/evil.example",
  "/\n/evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "//evil.example",
  "///evil.example",
  "https://evil.example/",
  "https:evil.example",
  "javascript:alert(document.domain)",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "%2F%2Fevil.example",
  "/%5Cevil.example",
  "/%09/evil.example",
  " //evil.example",
  "/.//evil.example",
];

function expectOnHub(location: string | null | undefined, base: string, what: string): void {
  if (location == null) return; // no redirect at all stays on the hub
  const target = new URL(location, base);
  expect(target.origin, `${what} → Location ${JSON.stringify(location)}`).toBe(new URL(base).origin);
  expect(location, `${what}: no control characters in Location`).not.toMatch(/[\t\r\n\\]/);
}

test("every return address the hub accepts stays on its origin, on every route that takes one", async ({ page, baseURL }) => {
  const base = baseURL!;
  // Signed in with one profile (the student), so the sign-in, /perfil and the picker redirect at once.
  await page.goto("/login");
  await fillSignIn(page, "aluno@demo.hub.br");
  await expect(page.getByRole("heading", { name: /^Olá, / })).toBeVisible();
  const profileId = await page.evaluate(async () => ((await (await fetch("/api/auth/session")).json()) as { profileId?: string }).profileId ?? null);

  for (const probe of PROBES) {
    const q = new URLSearchParams({ callbackUrl: probe }).toString();
    // A person with several profiles (a teacher at two schools): the sign-in sends them to the
    // picker, which carries the address on; follow it once more.
    const toPicker = await page.request.post("/entrar", { form: { login: "ana.souza@demo.hub.br", password: "hub-demo", callbackUrl: probe }, headers: { origin: base }, maxRedirects: 0 });
    expect(toPicker.status()).toBe(303);
    expectOnHub(toPicker.headers().location, base, `POST /entrar (several profiles) callbackUrl=${JSON.stringify(probe)}`);
    const picker = new URL(toPicker.headers().location!, base);
    expect(picker.pathname).toBe("/perfil");
    const pickerAnswer = await page.request.get(picker.pathname + picker.search, { maxRedirects: 0 });
    expectOnHub(pickerAnswer.headers().location, base, `GET ${toPicker.headers().location}`);
    // The student, one profile: the sign-in sends them straight where /perfil would (no picker
    // hop), so that Location is the one the hub takes from the probe; follow it once more too.
    const signIn = await page.request.post("/entrar", { form: { login: "aluno@demo.hub.br", password: "hub-demo", callbackUrl: probe }, headers: { origin: base }, maxRedirects: 0 });
    expect(signIn.status()).toBe(303);
    expectOnHub(signIn.headers().location, base, `POST /entrar callbackUrl=${JSON.stringify(probe)}`);
    const next = new URL(signIn.headers().location!, base);
    expect(next.pathname, `POST /entrar callbackUrl=${JSON.stringify(probe)}: no picker for one profile`).not.toBe("/perfil");
    const followed = await page.request.get(next.pathname + next.search, { maxRedirects: 0 });
    expectOnHub(followed.headers().location, base, `GET ${signIn.headers().location}`);
    const perfil = await page.request.get(`/perfil?${q}`, { maxRedirects: 0 });
    expect(new URL(perfil.headers().location ?? "", base).href, `GET /perfil?${q} sends the student where the sign-in did`).toBe(next.href);

    if (profileId) {
      const chosen = await page.request.post("/perfil/escolher", { form: { profileId, callbackUrl: probe, returnTo: probe }, headers: { origin: base }, maxRedirects: 0 });
      expect(chosen.status()).toBe(303);
      expectOnHub(chosen.headers().location, base, `POST /perfil/escolher callbackUrl=${JSON.stringify(probe)}`);
    }
    for (const path of ["/perfil", "/login", "/api/auth/signin", "/api/auth/signout", "/api/auth/session", "/api/auth/error", "/api/auth/callback/credentials"]) {
      const response = await page.request.get(`${path}?${q}`, { maxRedirects: 0 });
      expect(response.status(), `${path}?${q}`).toBeLessThan(500);
      expectOnHub(response.headers().location, base, `GET ${path}?${q}`);
    }
  }
});

test("after a real sign-in in the browser, the probes end on the hub", async ({ page, baseURL }) => {
  for (const probe of ["/\t/evil.example", "/\\evil.example", "javascript:alert(1)", "/%2F/evil.example"]) {
    await page.context().clearCookies();
    await page.goto(`/login?callbackUrl=${encodeURIComponent(probe)}`);
    await fillSignIn(page, "aluno@demo.hub.br");
    // Home, or a hub page that does not exist (/%2F/evil.example is a path on the hub): never away.
    await expect(page).not.toHaveURL(/\/login/);
    await expect(page.getByRole("link", { name: "Hub Educacional" })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  }
});

test("next-auth's endpoints answer malformed input with a 3xx or 4xx, never a 500", async ({ request }) => {
  const answers = [
    await request.get("/api/auth/error/%F0%9F%98%80", { maxRedirects: 0 }),
    await request.get("/api/auth/error?error=%F0%9F%98%80", { maxRedirects: 0 }),
    await request.get("/api/auth/session?callbackUrl=x", { maxRedirects: 0 }),
    await request.post("/api/auth/session", { headers: { "content-type": "application/json" }, data: "{", maxRedirects: 0 }),
    await request.post("/api/auth/signin", { headers: { "content-type": "application/json" }, data: '{"callbackUrl":{"x":1}}', maxRedirects: 0 }),
    await request.post("/api/auth/providers/x", { headers: { "content-type": "application/json" }, data: '{"callbackUrl":[1]}', maxRedirects: 0 }),
  ];
  for (const answer of answers) {
    expect(answer.status(), answer.url()).toBeGreaterThanOrEqual(200);
    expect(answer.status(), answer.url()).toBeLessThan(500);
  }
  expect(answers[3]!.status()).toBe(400);
});
