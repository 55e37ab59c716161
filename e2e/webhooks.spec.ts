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

    await page.getByRole("button", { name: "Enviar evento de teste" }).click();
    await expect.poll(() => received.some((r) => r.type === "webhook.teste")).toBe(true);
    expect(unverified).toBe(0);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
