// The Data API on the served hub as a partner following the contract calls it: org_id missing is
// a 400 (after the key check), and a call with neither limit nor cursor gets every event.
import { expect, hubNow, signedIn, test } from "./fixtures";

const API_KEY = "demo-api-key";

test("org_id not informed: 401 without a valid key, then 400 with a message, on data, summary and usage, with or without a trailing slash", async ({ request }) => {
  for (const path of ["/manager/v1/data", "/manager/v1/data/", "/manager/v1/summary", "/manager/v1/summary/", "/manager/v1/usage", "/manager/v1/usage/"]) {
    const anonymous = await request.get(path, { maxRedirects: 0 });
    expect(anonymous.status(), path).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Unauthorized" });
    const keyed = await request.get(path, { headers: { "x-api-key": API_KEY }, maxRedirects: 0 });
    expect(keyed.status(), path).toBe(400);
    expect((await keyed.json()).message, path).toEqual(expect.any(String));
  }
});

test("a request with neither limit nor cursor returns every matching event, past any page size", async ({ page, baseURL }) => {
  await signedIn(page, "gestor@demo.hub.br");
  await page.goto("/gestao");
  const school1 = ((await page.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name: "EMEF Monteiro Lobato", exact: true }).getAttribute("href")) ?? "").split("/")[2]!;
  const tag = `Fluxo ${Date.now() % 1_000_000}`;
  const since = hubNow();
  const csv = ["nome;perfil", ...Array.from({ length: 1_200 }, (_, i) => `Aluno ${tag} ${i};aluno`)].join("\n");
  const imported = await page.request.post(`/gestao/${school1}/importar/executar?tipo=pessoas`, { data: csv, headers: { "content-type": "text/csv", origin: baseURL! } });
  expect(imported.status()).toBe(200);
  expect(await imported.text()).toContain('"type":"result"');

  type Body = { dados: Record<string, { registro: Record<string, unknown> }[]>; paginacao: { limite: number | null; proximoCursor: string | null } };
  const read = async () => {
    const response = await page.request.get(`/manager/v1/data/${school1}?${new URLSearchParams({ min_date: since, only: "usuario" })}`, { headers: { "x-api-key": API_KEY } });
    expect(response.status()).toBe(200);
    return (await response.json()) as Body;
  };
  let body = await read();
  // A read with min_date sees an event about a second after its commit.
  await expect.poll(async () => (body = await read()).dados.usuario!.filter((e) => String(e.registro.nome_usuario).includes(tag)).length).toBe(1_200);
  expect(body.paginacao).toMatchObject({ limite: null, proximoCursor: null });

  const paged = await page.request.get(`/manager/v1/data/${school1}?${new URLSearchParams({ min_date: since, only: "usuario", limit: "1000" })}`, { headers: { "x-api-key": API_KEY } });
  const first = (await paged.json()) as Body;
  expect(first.dados.usuario).toHaveLength(1_000);
  expect(first.paginacao.proximoCursor).not.toBeNull();
});

test("the partner-facing routes carry the hub's security headers, however server.mjs answers them", async ({ request }) => {
  // The Data API, user info and the token endpoint are answered beside Next once the hub has warmed
  // up (lib/server/http/hot-routes.ts); their headers must be Next's (next.config.mjs).
  const anyOrg = "00000000-0000-4000-8000-000000000000";
  const answers = [
    await request.get(`/manager/v1/data/${anyOrg}?limit=1`, { headers: { "x-api-key": API_KEY } }),
    await request.get(`/manager/v1/summary/${anyOrg}`, { headers: { "x-api-key": API_KEY } }),
    await request.get("/users/v1/users/info"),
    await request.post("/lti/v1/oauth2/authorize", { form: { grant_type: "authorization_code" } }),
    await request.get("/manager/v1/usage"),
  ];
  for (const answer of answers) {
    expect(answer.status(), answer.url()).toBeGreaterThanOrEqual(400);
    expect(answer.headers(), answer.url()).toMatchObject({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "strict-origin-when-cross-origin",
      "content-security-policy": "frame-ancestors 'none'",
    });
  }
});
