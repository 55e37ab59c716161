// Issue #20 in the browser, as dev@edtech.demo: a sandbox network on request, a webhook endpoint
// pointing at a receiver on this machine (the e2e server runs with DEMO_TOOL=1, so loopback is
// allowed), "generate changes", the deliveries in the log, one of them sent again under the same
// webhook-id, and a test event. Every request the receiver gets is verified with standardwebhooks.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { expect, signedIn, test } from "./fixtures";

const DEVELOPER = "dev@edtech.demo";
const APPLICATION = "Aplicativo de Demonstração";

interface TReceived { id: string; type: string; instituicaoId?: string }

// The tests share the demo application: one after the other, so a page shows one test's endpoints at a time.
test.describe.configure({ mode: "serial" });

/** A receiver on this machine that answers every delivery with `status`, counting them. */
async function failingReceiver(status: number): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits++;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hub-webhooks-${status}`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("an edtech creates a sandbox, generates changes, sees deliveries and sends one again", async ({ page }) => {
  test.setTimeout(120_000);
  const received: TReceived[] = [];
  let webhook: Webhook | null = null;
  let unverified = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // Deliveries start as soon as the endpoint exists, before the test has read its secret: not ready yet, try later.
      if (!webhook) return void res.writeHead(503).end();
      try {
        const payload = webhook.verify(Buffer.concat(chunks).toString("utf8"), req.headers as Record<string, string>) as { type: string; instituicaoId?: string };
        received.push({ id: String(req.headers["webhook-id"]), type: payload.type, ...(payload.instituicaoId ? { instituicaoId: payload.instituicaoId } : {}) });
        res.writeHead(204).end();
      } catch {
        unverified++;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hub-webhooks`;

  try {
    await signedIn(page, DEVELOPER);
    await page.goto("/desenvolvedor/sandbox");
    await page.getByRole("button", { name: "Criar rede sandbox" }).click();
    await expect(page.getByText("Rede sandbox criada.")).toBeVisible({ timeout: 60_000 });
    await expect(page.getByLabel(`Chave da API de dados de ${APPLICATION} (sandbox)`)).toHaveValue(/^hub_/);
    await page.reload();
    const sandboxId = (await page.locator("[data-sandbox-org-id]").getAttribute("data-sandbox-org-id"))!;
    await expect(page.locator("[data-sandbox-password]")).toHaveText(/^sandbox-/);
    await expect(page.getByRole("table", { name: "Usuários sandbox para entrar no Hub" }).getByText(/@sandbox\.invalid/)).toHaveCount(3);

    await page.goto("/desenvolvedor");
    await page.getByRole("link", { name: APPLICATION }).first().click();
    await page.getByRole("link", { name: "Configurar webhooks →" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await page.getByLabel("Endereço (URL)").fill(url);
    await page.getByRole("checkbox", { name: "usuario" }).check();
    await page.getByRole("checkbox", { name: "turma", exact: true }).check();
    await page.getByRole("button", { name: "Criar endpoint" }).click();
    const secret = await page.getByLabel("Segredo de assinatura do webhook").inputValue();
    expect(secret).toMatch(/^whsec_/);
    webhook = new Webhook(secret);
    const webhooksPage = page.url();

    await page.goto("/desenvolvedor/sandbox");
    await page.getByRole("button", { name: "Gerar alterações" }).click();
    await expect(page.getByText(/Alterações geradas: \d+ inclusões/)).toBeVisible({ timeout: 30_000 });

    // The worker reads the sandbox's feed and delivers it in batches.
    await expect.poll(() => received.filter((r) => r.instituicaoId === sandboxId).length, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.goto(webhooksPage);
    const sandboxRows = page.locator("tr[data-attempt]").filter({ hasText: "Rede Sandbox" });
    await expect(sandboxRows.first()).toBeVisible();
    await expect(sandboxRows.first()).toHaveAttribute("data-ok", "true");
    const messageId = (await sandboxRows.first().getAttribute("data-attempt"))!;

    await sandboxRows.first().getByRole("button", { name: "Enviar de novo" }).click();
    await expect(page.getByText(/Entregue: 204 em \d+ ms\./)).toBeVisible();
    expect(received.filter((r) => r.id === messageId)).toHaveLength(2);
    await expect(page.locator("tr[data-attempt]").filter({ hasText: "reenvio manual" })).toHaveCount(1);

    await page.locator(`[data-webhook-endpoint="${url}"]`).getByRole("button", { name: "Enviar evento de teste" }).click();
    await expect.poll(() => received.some((r) => r.type === "webhook.teste")).toBe(true);
    expect(unverified).toBe(0);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a receiver answering 410 Gone has its endpoint disabled at once; one that keeps failing, once the window has passed", async ({ page }) => {
  // The e2e server disables after 15 s of failures (scripts/serve-e2e.mjs); retries back off from 5 s.
  test.setTimeout(150_000);
  const gone = await failingReceiver(410);
  const failing = await failingReceiver(503);
  try {
    await signedIn(page, DEVELOPER);
    await page.goto("/desenvolvedor");
    await page.getByRole("link", { name: APPLICATION }).first().click();
    await page.getByRole("link", { name: "Configurar webhooks →" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    const webhooksPage = page.url();
    for (const receiver of [gone, failing]) {
      await page.getByLabel("Endereço (URL)").fill(receiver.url);
      await page.getByRole("button", { name: "Criar endpoint" }).click();
      await expect(page.getByLabel("Segredo de assinatura do webhook")).toHaveValue(/^whsec_/);
      await page.goto(webhooksPage);
    }
    // The demo application reads the demo schools: their feeds are delivered from the start at once.
    const notice = (url: string) => page.locator(`[data-webhook-endpoint="${url}"]`).getByRole("alert");
    await expect
      .poll(async () => {
        await page.goto(webhooksPage);
        return (await notice(gone.url).count()) ? await notice(gone.url).innerText() : "";
      }, { timeout: 30_000, intervals: [1_000] })
      .toMatch(/Desativado em .* o receptor respondeu 410 Gone/);
    // Disabled at its first failure: the hub sent nothing more to it.
    const goneHits = gone.hits();
    expect(goneHits).toBeGreaterThan(0);
    await expect
      .poll(async () => {
        await page.goto(webhooksPage);
        return (await notice(failing.url).count()) ? await notice(failing.url).innerText() : "";
      }, { timeout: 120_000, intervals: [2_000] })
      .toMatch(/Desativado após \d+ tentativas sem sucesso em mais de 15 s\. Última falha: Respondeu 503/);
    expect(failing.hits()).toBeGreaterThan(1);
    expect(gone.hits()).toBe(goneHits);
  } finally {
    await Promise.all([gone.close(), failing.close()]);
  }
});
