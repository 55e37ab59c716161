// The metrics registry: one per process (on globalThis, shared by server.mjs and Next's bundle),
// the pools' gauges and waits, the replica lag only once a source is registered, the webhook
// gauges read from their source at scrape time, and the listener that serves them off the public
// port.
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { metricsListenSettings, startMetricsServer } from "./metrics-server.mjs";
import { forgetPool, metrics, metricsRegistry, metricsText, observePool, registerReplicaLagSource, registerWebhookBacklogSource } from "./registry.mjs";

/** The value of a sample in the exposition text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(" ")[0]!;
    if (wanted.every((pair) => labelText.includes(pair))) return Number(line.split(" ").at(-1));
  }
  return undefined;
}

describe("the registry", () => {
  it("is one per process, kept on globalThis", () => {
    const registry = metricsRegistry();
    const held = (globalThis as Record<symbol, unknown>)[Symbol.for("hub.metrics")] as { registry: unknown };
    expect(held.registry).toBe(registry);
  });

  it("counts with bounded labels and serves them, all named hub_", async () => {
    const before = sample((await metricsText()).body, "hub_sign_ins_total", { method: "card", role: "aluno" }) ?? 0;
    metrics().signIns.inc({ method: "card", role: "aluno" });
    const { body, contentType } = await metricsText();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(body, "hub_sign_ins_total", { method: "card", role: "aluno" })).toBe(before + 1);
    const names = (await metricsRegistry().getMetricsAsJSON()).map((m) => m.name);
    // prom-client's default process metrics keep their usual names, so stock dashboards read them.
    expect(names.filter((n) => !n.startsWith("process_") && !n.startsWith("nodejs_")).every((n) => n.startsWith("hub_"))).toBe(true);
    expect(names).toContain("process_cpu_seconds_total");
  });

  it("reads a pool's connections at scrape time and times its waits", async () => {
    const pool = {
      totalCount: 7,
      idleCount: 2,
      waitingCount: 3,
      options: { max: 10 },
      connect(callback?: (error: Error | undefined, client: object) => void) {
        if (callback) return void setTimeout(() => callback(undefined, {}), 5);
        return new Promise((resolve) => setTimeout(() => resolve({}), 5));
      },
    };
    observePool("test-pool", pool);
    await pool.connect();
    await new Promise((resolve) => pool.connect(resolve));
    const { body } = await metricsText();
    expect(sample(body, "hub_db_pool_connections", { pool: "test-pool", state: "busy" })).toBe(5);
    expect(sample(body, "hub_db_pool_connections", { pool: "test-pool", state: "idle" })).toBe(2);
    expect(sample(body, "hub_db_pool_waiting_requests", { pool: "test-pool" })).toBe(3);
    expect(sample(body, "hub_db_pool_max_connections", { pool: "test-pool" })).toBe(10);
    expect(sample(body, "hub_db_pool_acquire_seconds_count", { pool: "test-pool" })).toBe(2);
    forgetPool("test-pool");
    expect(sample((await metricsText()).body, "hub_db_pool_connections", { pool: "test-pool" })).toBeUndefined();
  });

  it("has no replica lag until a source registers one, then reads every source at each scrape", async () => {
    expect((await metricsText()).body).not.toContain("hub_db_replica_lag_seconds");
    let lag = 0.25;
    registerReplicaLagSource(() => ({ "replica-1": lag }));
    registerReplicaLagSource(async () => {
      throw new Error("replica down");
    });
    registerReplicaLagSource(async () => ({ "replica-2": 4 }));
    let body = (await metricsText()).body;
    expect(sample(body, "hub_db_replica_lag_seconds", { replica: "replica-1" })).toBe(0.25);
    expect(sample(body, "hub_db_replica_lag_seconds", { replica: "replica-2" })).toBe(4);
    lag = 1.5;
    body = (await metricsText()).body;
    expect(sample(body, "hub_db_replica_lag_seconds", { replica: "replica-1" })).toBe(1.5);
  });

  it("reads the webhook gauges from their source, and leaves them out when it fails", async () => {
    let fail = false;
    registerWebhookBacklogSource(async () => {
      if (fail) throw new Error("database down");
      return [{ endpoint: "e-1", backlogCursors: 2, failingCursors: 1, dueSeconds: 0.5 }];
    });
    let body = (await metricsText()).body;
    expect(sample(body, "hub_webhook_backlog_cursors", { endpoint: "e-1" })).toBe(2);
    expect(sample(body, "hub_webhook_failing_cursors", { endpoint: "e-1" })).toBe(1);
    expect(sample(body, "hub_webhook_due_seconds", { endpoint: "e-1" })).toBe(0.5);
    fail = true;
    body = (await metricsText()).body;
    expect(sample(body, "hub_webhook_backlog_cursors", { endpoint: "e-1" })).toBeUndefined();
  });
});

describe("the metrics listener", () => {
  const servers: Array<{ close(): void }> = [];
  afterAll(() => servers.forEach((s) => s.close()));
  const noLog = { error: () => undefined };

  it("is off without HUB_METRICS_PORT and refuses a bad port or the public one", () => {
    expect(metricsListenSettings({})).toBeNull();
    expect(metricsListenSettings({ HUB_METRICS_PORT: " " })).toBeNull();
    expect(metricsListenSettings({ HUB_METRICS_PORT: "9464" })).toEqual({ port: 9464, host: "127.0.0.1", token: null });
    expect(metricsListenSettings({ HUB_METRICS_PORT: "9464", HUB_METRICS_HOST: "0.0.0.0", HUB_METRICS_TOKEN: "a-long-enough-token" })).toEqual({ port: 9464, host: "0.0.0.0", token: "a-long-enough-token" });
    expect(() => metricsListenSettings({ HUB_METRICS_PORT: "abc" })).toThrow(/HUB_METRICS_PORT/);
    expect(() => metricsListenSettings({ HUB_METRICS_PORT: "70000" })).toThrow(/HUB_METRICS_PORT/);
    expect(() => metricsListenSettings({ HUB_METRICS_PORT: "3000", PORT: "3000" })).toThrow(/public port/);
    expect(() => metricsListenSettings({ HUB_METRICS_PORT: "9464", HUB_METRICS_TOKEN: "short" })).toThrow(/HUB_METRICS_TOKEN/);
  });

  it("serves /metrics and nothing else", async () => {
    const server = await startMetricsServer({ port: 0, host: "127.0.0.1", token: null }, noLog);
    servers.push(server);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("# TYPE hub_http_requests_total counter");
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("asks for the bearer token when one is set", async () => {
    const server = await startMetricsServer({ port: 0, host: "127.0.0.1", token: "a-long-enough-token" }, noLog);
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer a-long-enough-tokeX" } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer a-long-enough-token" } })).status).toBe(200);
  });
});
