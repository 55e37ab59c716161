// The served hub compresses with its own policy (server.mjs, ADR 007): brotli when the client
// accepts it, gzip otherwise, on a Data API page and on the pages a browser loads.
import type { Page } from "@playwright/test";
import { expect, signedIn, test } from "./fixtures";

const NETWORK = "Rede Municipal de Vila Esperança";

/** The demo network's id, read from the manager's tree; the demo application has access there. */
async function networkId(page: Page): Promise<string> {
  await signedIn(page, "gestor@demo.hub.br");
  await page.goto("/gestao");
  const tree = page.getByRole("list", { name: "Instituições sob sua gestão" });
  const href = (await tree.getByRole("link", { name: NETWORK, exact: true }).getAttribute("href")) ?? "";
  return href.split("/")[2]!;
}

test("a Data API page is gzip for gzip clients and brotli for br clients, and parses", async ({ page }) => {
  const orgId = await networkId(page);
  for (const [accept, encoding] of [["gzip, deflate", "gzip"], ["gzip, deflate, br", "br"]] as const) {
    // Playwright decompresses the body itself and keeps the response's headers as sent.
    const response = await page.request.get(`/manager/v1/data/${orgId}`, { headers: { "x-api-key": "demo-api-key", "accept-encoding": accept } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-encoding"]).toBe(encoding);
    const text = await response.text();
    expect(text.length).toBeGreaterThan(1024);
    expect(JSON.parse(text)).toHaveProperty("configuracao.conjuntoDadosUsuario");
  }
});

test("Chromium gets the sign-in page with brotli", async ({ page }) => {
  const response = await page.goto("/login");
  expect(response?.status()).toBe(200);
  expect((await response!.allHeaders())["content-encoding"]).toBe("br");
  await expect(page.getByRole("button", { name: "Entrar" })).toBeVisible();
});
