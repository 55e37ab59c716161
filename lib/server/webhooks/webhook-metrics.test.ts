// What the webhook metrics show (docs/operations.md, "Webhooks"): a feed with an undelivered
// event is in the backlog until its batch is delivered, a delivery is counted per endpoint with
// how long its oldest event waited, and a failing feed is counted as failing. With traces on, a
// delivered batch is a span of its own.
import { trace } from "@opentelemetry/api";
import { tracing } from "@opentelemetry/sdk-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { db } from "@/lib/server/db/database";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { metricsRegistry } from "@/lib/server/metrics/registry.mjs";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { setupTestDatabase } from "@/test/database";
import { createPartner, grantAccess, linkEdtech } from "@/test/fixtures/data-api";
import { createDeveloper } from "@/test/fixtures/developer";
import { startReceiver, type TReceiver } from "@/test/fixtures/webhooks";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { DEFAULT_DELIVERY_SETTINGS, deliverNextBatch } from "./deliver-next-batch";
import { readWebhookBacklog } from "./read-webhook-backlog";

setupTestDatabase();
let receiver: TReceiver;
let endpointId = "";
let school = "";
const settings = { ...DEFAULT_DELIVERY_SETTINGS, worker: "test", allowPrivateNetwork: true, backoffBaseMs: 1, backoffCapMs: 1 };

/** A sample of a metric (a histogram's `_sum` or `_count` by that name), summed over the labels not given. */
async function value(name: string, labels: Record<string, string>): Promise<number> {
  const part = /_(sum|count)$/.test(name) ? name : null;
  const metric = metricsRegistry().getSingleMetric(part ? name.replace(/_(sum|count)$/, "") : name);
  if (!metric) return 0;
  const { values } = (await metric.get()) as { values: Array<{ value: number; labels: object; metricName?: string }> };
  return values
    .filter((v) => !part || v.metricName === part)
    .filter((v) => Object.entries(labels).every(([k, l]) => (v.labels as Record<string, unknown>)[k] === l))
    .reduce((sum, v) => sum + v.value, 0);
}

beforeAll(async () => {
  process.env.HUB_SECRET = "webhook-metrics-test-secret-0123456789";
  resetEnvCache();
  const developer = await createDeveloper("Métricas");
  const { applicationId } = await createPartner("Métricas", developer.edtechId);
  school = (await createInstitution({ name: "Escola Métrica", kind: "school" })).id;
  await linkEdtech(school, developer.edtechId);
  await grantAccess(school, applicationId, { allowed: [], anonymized: [] });
  receiver = await startReceiver();
  const created = await createWebhookEndpoint({ actorPersonId: developer.personId, applicationId, fields: { url: receiver.url }, allowPrivateNetwork: true });
  endpointId = created.endpointId;
  receiver.setSecret(created.secret);
});
afterAll(() => receiver.close());

const rowOf = async () => (await readWebhookBacklog()).find((row) => row.endpoint === endpointId);

describe("webhook metrics", () => {
  it("shows a feed with an undelivered event in the backlog, and counts its delivery with the event's wait", async () => {
    await createPeriod({ institutionId: school, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
    expect(await rowOf()).toMatchObject({ backlogCursors: 1, failingCursors: 0 });
    const delivered = await value("hub_webhook_deliveries_total", { endpoint: endpointId, result: "ok" });
    const lagCount = await value("hub_webhook_delivery_lag_seconds", { endpoint: endpointId, le: "+Inf" });
    // The event reaches the feed once it is below the horizon (another test file's transaction may hold it back a moment).
    await expect.poll(() => deliverNextBatch(settings), { timeout: 10_000, interval: 100 }).toBe("delivered");
    expect(await value("hub_webhook_deliveries_total", { endpoint: endpointId, result: "ok" })).toBe(delivered + 1);
    expect(await value("hub_webhook_delivery_lag_seconds", { endpoint: endpointId, le: "+Inf" })).toBe(lagCount + 1);
    expect(await value("hub_webhook_delivery_lag_seconds_sum", { endpoint: endpointId })).toBeGreaterThan(0);
    expect(await rowOf()).toMatchObject({ backlogCursors: 0, failingCursors: 0 });
  });

  it("is one span per claimed batch when traces are on, naming the endpoint and the result", async () => {
    const exporter = new tracing.InMemorySpanExporter();
    trace.setGlobalTracerProvider(new tracing.BasicTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] }));
    try {
      await createPeriod({ institutionId: school, code: "2028", name: "2028", startsOn: "2028-02-01", endsOn: "2028-12-01" });
      await db().webhookCursor.updateMany({ where: { endpointId }, data: { dueAt: new Date(0) } });
      await expect.poll(() => deliverNextBatch(settings), { timeout: 10_000, interval: 100 }).toBe("delivered");
      const delivered = exporter.getFinishedSpans().filter((span) => span.name === "webhook delivery" && span.attributes["hub.webhook.result"] === "delivered");
      expect(delivered).toHaveLength(1);
      expect(delivered[0]!.attributes).toMatchObject({ "hub.webhook.endpoint": endpointId, "hub.institution": school });
    } finally {
      trace.disable();
    }
  });

  it("counts a failed delivery and the failing feed", async () => {
    await createPeriod({ institutionId: school, code: "2027", name: "2027", startsOn: "2027-02-01", endsOn: "2027-12-01" });
    receiver.failWith = 503;
    await db().webhookCursor.updateMany({ where: { endpointId }, data: { dueAt: new Date(0) } });
    const failed = await value("hub_webhook_deliveries_total", { endpoint: endpointId, result: "failed" });
    await expect.poll(() => deliverNextBatch(settings), { timeout: 10_000, interval: 100 }).toBe("failed");
    expect(await value("hub_webhook_deliveries_total", { endpoint: endpointId, result: "failed" })).toBe(failed + 1);
    expect(await rowOf()).toMatchObject({ backlogCursors: 1, failingCursors: 1 });
    receiver.failWith = null;
  });
});
