// A form post's refusals are pages a person reads, in Portuguese, with the status unchanged and a
// way back to the hub at its base URL: never the JSON an API client gets (form-post.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { formPostEndpoint, handleFormPost, seeOther } from "./form-post";
import { routeHandler } from "./plain-endpoint";

const BASE = "http://hub.test";
const FORM = "application/x-www-form-urlencoded";

beforeAll(() => {
  process.env.HUB_BASE_URL = BASE;
  resetEnvCache();
});
afterAll(() => resetEnvCache());

function post(headers: Record<string, string>, body = "login=a&password=b"): NextRequest {
  return new NextRequest(`${BASE}/entrar`, { method: "POST", headers, body });
}

/** The page's parts a person (and axe) relies on, and that it is not JSON. */
async function page(response: Response): Promise<{ status: number; html: string; h1: string; title: string; link: string }> {
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
  const html = await response.text();
  expect(html).toMatch(/^<!doctype html><html lang="pt-BR">/);
  expect(html).toMatch(/<main>.*<\/main>/);
  return {
    status: response.status,
    html,
    h1: /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? "",
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "",
    link: /<a class="button" href="([^"]*)">/.exec(html)?.[1] ?? "",
  };
}

const unreachable = async (): Promise<Response> => {
  throw new Error("the handler must not run");
};

type THandler = (form: URLSearchParams) => Promise<Response>;

/**
 * The two ways a form post is received: a route handler's (handleFormPost), and a plain endpoint's
 * (formPostEndpoint, which server.mjs serves beside Next), here adapted to a Request and Response.
 */
const WAYS: Record<string, (request: NextRequest, handler: THandler) => Promise<Response>> = {
  handleFormPost,
  formPostEndpoint: (request, handler) =>
    routeHandler(
      formPostEndpoint(async (form) => {
        const response = await handler(form);
        return { status: response.status, headers: Object.fromEntries(response.headers) };
      }),
    )(request),
};

describe.each(Object.keys(WAYS))("%s's refusals", (way) => {
  const handleFormPost = WAYS[way]!;
  it("a post from another origin: 403, the page says it came from another address and links to sign-in at the base URL", async () => {
    const posts: Record<string, string>[] = [{ origin: "http://127.0.0.1:3000", "content-type": FORM }, { origin: "https://evil.example", "content-type": FORM }, { "content-type": FORM }, { "sec-fetch-site": "cross-site", "content-type": FORM }];
    for (const headers of posts) {
      const got = await page(await handleFormPost(post(headers), unreachable));
      expect(got.status).toBe(403);
      expect(got.h1).toBe("Formulário enviado de outro endereço");
      expect(got.title).toBe(got.h1);
      expect(got.html).toContain("endereço que não é o do Hub (hub.test)");
      expect(got.link).toBe(`${BASE}/login`);
    }
  });

  it("a body that is not form-encoded: 415; over 16 KiB: 413; both link home", async () => {
    const json = await page(await handleFormPost(post({ origin: BASE, "content-type": "application/json" }, "{}"), unreachable));
    expect([json.status, json.h1, json.link]).toEqual([415, "Formulário em um formato não aceito", `${BASE}/`]);
    const large = await page(await handleFormPost(post({ origin: BASE, "content-type": FORM }, `x=${"a".repeat(17 * 1024)}`), unreachable));
    expect([large.status, large.h1, large.link]).toEqual([413, "Formulário grande demais", `${BASE}/`]);
  });

  it("an AppError of the handler keeps its status, shows its message (escaped), and a 401 links to sign-in", async () => {
    const expired = await page(await handleFormPost(post({ origin: BASE, "content-type": FORM }), async () => { throw new AppError("unauthorized", "Sua sessão expirou. Entre novamente."); }));
    expect([expired.status, expired.h1, expired.link]).toEqual([401, "Entre novamente para continuar", `${BASE}/login`]);
    expect(expired.html).toContain("<p>Sua sessão expirou. Entre novamente.</p>");
    const missing = await page(await handleFormPost(post({ origin: BASE, "content-type": FORM }), async () => { throw new AppError("not_found", "Turma <b>não</b> encontrada."); }));
    expect([missing.status, missing.link]).toEqual([404, `${BASE}/`]);
    expect(missing.html).toContain("Turma &lt;b&gt;não&lt;/b&gt; encontrada.");
  });

  it("an unexpected error is a 500 page with the request id, never the error's message; a database outage a 503 with Retry-After", async () => {
    const failed = await handleFormPost(post({ origin: BASE, "content-type": FORM }), async () => { throw new Error("segredo interno"); });
    const got = await page(failed);
    expect(got.status).toBe(500);
    expect(got.html).not.toContain("segredo interno");
    expect(got.html).toMatch(/Código para o suporte: <code>[0-9a-f-]{36}<\/code>/);
    const unavailable = await handleFormPost(post({ origin: BASE, "content-type": FORM }), async () => { throw new AppError("unavailable", "O banco de dados do Hub está indisponível no momento."); });
    expect(unavailable.headers.get("retry-after")).toBe("5");
    expect((await page(unavailable)).status).toBe(503);
  });

  it("a same-origin form post reaches the handler with its fields", async () => {
    const response = await handleFormPost(post({ origin: BASE, "content-type": `${FORM}; charset=UTF-8` }, "login=ana&password=x"), async (form) => seeOther(`/ok?login=${form.get("login")}`));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/ok?login=ana");
  });
});
