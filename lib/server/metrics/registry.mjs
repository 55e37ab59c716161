// @ts-check
// The hub's Prometheus metrics (prom-client): one registry per process, every metric named and
// described here once, served by server.mjs on its own listener (metrics-server.mjs, when
// HUB_METRICS_PORT is set; docs/operations.md lists them, docs/decisions/041 says why).
//
// server.mjs loads this file as it is, and Next's build bundles its own copy for the routes and
// instrumentation-node.ts: both must count into ONE registry, so the registry, its metrics and the
// sources read at scrape time live on globalThis under a registered symbol (as log.mjs and
// hot-routes.ts keep theirs). prom-client stays outside the bundle (next.config.mjs), one copy.
//
// Labels are bounded sets: route families (route-family.mjs), status classes or codes, the access
// log's channels (AccessChannel), the sign-in methods (TSignInMethod), roles, LTI versions, pool and
// replica names, and webhook endpoint ids (as many as the hub has endpoints).
import client from "prom-client";

/** @typedef {{ totalCount: number, idleCount: number, waitingCount: number, options: { max?: number }, connect: Function }} TObservedPool */
/** @typedef {{ endpoint: string, backlogCursors: number, failingCursors: number, dueSeconds: number }} TWebhookBacklogRow */
/** @typedef {() => Promise<TWebhookBacklogRow[]>} TWebhookBacklogSource */
/** @typedef {() => Promise<Record<string, number>> | Record<string, number>} TReplicaLagSource */

const SECONDS_FAST = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_SLOW = [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600, 21600, 86400];

/**
 * @param {import("prom-client").Registry} registry
 * @param {State} state
 */
function createMetrics(registry, state) {
  const registers = [registry];
  return {
    httpRequests: new client.Counter({
      name: "hub_http_requests_total",
      help: "Requests answered on the public port, by route family and status code.",
      labelNames: /** @type {const} */ (["family", "code"]),
      registers,
    }),
    httpDuration: new client.Histogram({
      name: "hub_http_request_duration_seconds",
      help: "Time from a request's arrival to its response's end, by route family and status class.",
      labelNames: /** @type {const} */ (["family", "status_class"]),
      buckets: SECONDS_FAST,
      registers,
    }),
    signIns: new client.Counter({
      name: "hub_sign_ins_total",
      help: "Sign-ins with a profile (the usage page's sign-ins), by method and profile kind.",
      labelNames: /** @type {const} */ (["method", "role"]),
      registers,
    }),
    launches: new client.Counter({
      name: "hub_launches_total",
      help: "Tool launches recorded in the access log, by LTI version.",
      labelNames: /** @type {const} */ (["lti_version"]),
      registers,
    }),
    dataApiPages: new client.Counter({
      name: "hub_data_api_pages_total",
      help: "Data API reads answered: a page (limit or cursor) or a whole feed streamed, by reader (a partner's api_key, or the webhook worker when it found events).",
      labelNames: /** @type {const} */ (["reader", "mode"]),
      registers,
    }),
    dataApiEvents: new client.Counter({
      name: "hub_data_api_events_total",
      help: "Events served by the Data API, by reader and mode.",
      labelNames: /** @type {const} */ (["reader", "mode"]),
      registers,
    }),
    partnerAccess: new client.Counter({
      name: "hub_partner_access_total",
      help: "Entries of the institutions' access log: what left the hub towards a partner, by channel and status class.",
      labelNames: /** @type {const} */ (["channel", "status_class"]),
      registers,
    }),
    webhookDeliveries: new client.Counter({
      name: "hub_webhook_deliveries_total",
      help: "Webhook batches POSTed by this process's worker, by endpoint and result (ok, failed).",
      labelNames: /** @type {const} */ (["endpoint", "result"]),
      registers,
    }),
    webhookLag: new client.Histogram({
      name: "hub_webhook_delivery_lag_seconds",
      help: "For each batch delivered, how long its oldest event waited since it occurred, by endpoint.",
      labelNames: /** @type {const} */ (["endpoint"]),
      buckets: SECONDS_SLOW,
      registers,
    }),
    webhookBacklog: new client.Gauge({
      name: "hub_webhook_backlog_cursors",
      help: "Institution feeds of an enabled endpoint with events not yet delivered (or failing), read at scrape time.",
      labelNames: /** @type {const} */ (["endpoint"]),
      registers,
      collect: () => collectWebhookBacklog(state),
    }),
    webhookFailing: new client.Gauge({
      name: "hub_webhook_failing_cursors",
      help: "Institution feeds of an enabled endpoint whose last delivery failed, read at scrape time.",
      labelNames: /** @type {const} */ (["endpoint"]),
      registers,
      collect: () => collectWebhookBacklog(state),
    }),
    webhookDue: new client.Gauge({
      name: "hub_webhook_due_seconds",
      help: "How long the most overdue feed of an enabled endpoint has waited for a worker, read at scrape time.",
      labelNames: /** @type {const} */ (["endpoint"]),
      registers,
      collect: () => collectWebhookBacklog(state),
    }),
    poolConnections: new client.Gauge({
      name: "hub_db_pool_connections",
      help: "PostgreSQL connections of a pool by state (busy, idle), read at scrape time.",
      labelNames: /** @type {const} */ (["pool", "state"]),
      registers,
      collect() {
        this.reset();
        for (const [name, pool] of state.pools) {
          this.set({ pool: name, state: "idle" }, pool.idleCount);
          this.set({ pool: name, state: "busy" }, pool.totalCount - pool.idleCount);
        }
      },
    }),
    poolMax: new client.Gauge({
      name: "hub_db_pool_max_connections",
      help: "The most connections a pool opens.",
      labelNames: /** @type {const} */ (["pool"]),
      registers,
      collect() {
        this.reset();
        for (const [name, pool] of state.pools) this.set({ pool: name }, pool.options.max ?? 10);
      },
    }),
    poolWaiting: new client.Gauge({
      name: "hub_db_pool_waiting_requests",
      help: "Requests waiting for a connection of a pool, read at scrape time.",
      labelNames: /** @type {const} */ (["pool"]),
      registers,
      collect() {
        this.reset();
        for (const [name, pool] of state.pools) this.set({ pool: name }, pool.waitingCount);
      },
    }),
    poolAcquire: new client.Histogram({
      name: "hub_db_pool_acquire_seconds",
      help: "How long getting a connection from a pool took (its waits), by pool.",
      labelNames: /** @type {const} */ (["pool"]),
      buckets: SECONDS_FAST,
      registers,
    }),
  };
}

/**
 * @typedef {{
 *   registry: import("prom-client").Registry,
 *   metrics: ReturnType<typeof createMetrics>,
 *   pools: Map<string, TObservedPool>,
 *   webhookBacklog: TWebhookBacklogSource | null,
 *   webhookScrape: Promise<void> | null,
 *   replicaLag: TReplicaLagSource[],
 *   defaults: boolean,
 * }} State
 */

const STATE_KEY = Symbol.for("hub.metrics");

/** @returns {State} */
function state() {
  const holder = /** @type {Record<symbol, State | undefined>} */ (/** @type {unknown} */ (globalThis));
  let current = holder[STATE_KEY];
  if (!current) {
    const registry = new client.Registry();
    const created = /** @type {State} */ (/** @type {unknown} */ ({ registry, pools: new Map(), webhookBacklog: null, webhookScrape: null, replicaLag: [], defaults: false }));
    created.metrics = createMetrics(registry, created);
    holder[STATE_KEY] = current = created;
  }
  return current;
}

/** The process's metrics, to count with (`metrics().signIns.inc(...)`). */
export function metrics() {
  return state().metrics;
}

/**
 * The registry, for tests and the metrics listener.
 * @returns {import("prom-client").Registry}
 */
export function metricsRegistry() {
  return state().registry;
}

/**
 * The exposition text of every metric, with prom-client's default process metrics (CPU, memory,
 * event loop lag, GC) once the metrics listener is on: they sample on their own timers, so a
 * process that serves no metrics does not start them.
 */
export async function metricsText() {
  const s = state();
  if (!s.defaults) {
    s.defaults = true;
    client.collectDefaultMetrics({ register: s.registry });
  }
  return { contentType: s.registry.contentType, body: await s.registry.metrics() };
}

/**
 * Counts `pool` (a pg.Pool) in the pool gauges under `name`, and times every connection it hands
 * out (pool.query takes one through pool.connect too). lib/server/db calls it for each pool it opens.
 * @param {string} name
 * @param {TObservedPool} pool
 */
export function observePool(name, pool) {
  const s = state();
  s.pools.set(name, pool);
  // The pool's own child of the histogram: its labels are hashed once, not on every query.
  const acquire = s.metrics.poolAcquire.labels({ pool: name });
  const connect = /** @type {(cb?: Function) => Promise<unknown> | undefined} */ (pool.connect.bind(pool));
  /** @param {Function} [callback] */
  pool.connect = (callback) => {
    const end = acquire.startTimer();
    if (typeof callback === "function") return connect((/** @type {unknown[]} */ ...args) => (end(), callback(...args)));
    return /** @type {Promise<unknown>} */ (connect()).then(
      (connection) => (end(), connection),
      (error) => {
        end();
        throw error;
      },
    );
  };
}

/** Forgets a pool that was closed (a test's database). @param {string} name */
export function forgetPool(name) {
  state().pools.delete(name);
}

/**
 * Where the webhook gauges read their numbers at scrape time (instrumentation-node.ts registers
 * the worker's query).
 * @param {TWebhookBacklogSource} source
 */
export function registerWebhookBacklogSource(source) {
  state().webhookBacklog = source;
}

/**
 * The three webhook gauges come from one query: a scrape collects its metrics side by side, so
 * the first gauge's collect starts it and the others await the same one.
 * @param {State} s
 */
function collectWebhookBacklog(s) {
  s.webhookScrape ??= readWebhookBacklog(s).finally(() => (s.webhookScrape = null));
  return s.webhookScrape;
}

/** @param {State} s */
async function readWebhookBacklog(s) {
  const { webhookBacklog, webhookFailing, webhookDue } = s.metrics;
  for (const gauge of [webhookBacklog, webhookFailing, webhookDue]) gauge.reset();
  if (!s.webhookBacklog) return;
  let rows;
  try {
    rows = await s.webhookBacklog();
  } catch {
    // The database is down: the gauges are absent from this scrape (the pool's and the
    // requests' metrics say why), and the scrape itself still answers.
    return;
  }
  for (const row of rows) {
    webhookBacklog.set({ endpoint: row.endpoint }, row.backlogCursors);
    webhookFailing.set({ endpoint: row.endpoint }, row.failingCursors);
    webhookDue.set({ endpoint: row.endpoint }, row.dueSeconds);
  }
}

/**
 * Adds a source of `hub_db_replica_lag_seconds{replica}`: a function giving each replica's lag in
 * seconds by name, called at every scrape. The gauge exists from the first registration on, so a
 * hub without replicas shows none. A source that throws leaves its replicas out of that scrape.
 * @param {TReplicaLagSource} source
 */
export function registerReplicaLagSource(source) {
  const s = state();
  s.replicaLag.push(source);
  if (s.registry.getSingleMetric("hub_db_replica_lag_seconds")) return;
  new client.Gauge({
    name: "hub_db_replica_lag_seconds",
    help: "How far each read replica is behind the primary, in seconds, read at scrape time.",
    labelNames: /** @type {const} */ (["replica"]),
    registers: [s.registry],
    async collect() {
      this.reset();
      const results = await Promise.allSettled(s.replicaLag.map(async (read) => read()));
      for (const result of results) {
        if (result.status !== "fulfilled") continue;
        for (const [replica, seconds] of Object.entries(result.value)) if (Number.isFinite(seconds)) this.set({ replica }, seconds);
      }
    },
  });
}
