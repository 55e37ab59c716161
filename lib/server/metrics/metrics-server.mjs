// @ts-check
// The metrics listener: GET /metrics in Prometheus's text format on a port of its own
// (HUB_METRICS_PORT, bound to HUB_METRICS_HOST, 127.0.0.1 by default), never on the public port,
// so nothing a browser or a partner reaches exposes it (docs/decisions/041-metrics-and-traces.md).
// Prometheus scrapes each instance. HUB_METRICS_TOKEN, when set, is a bearer token every scrape
// must send (for a listener bound beyond the machine, as in a container).
import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import { metricsText } from "./registry.mjs";

/**
 * The listener's settings from the environment; null when HUB_METRICS_PORT is unset or empty (no
 * listener). A bad value throws, so the start fails with a readable message.
 * @param {Record<string, string | undefined>} env
 * @returns {{ port: number, host: string, token: string | null } | null}
 */
export function metricsListenSettings(env) {
  const raw = env.HUB_METRICS_PORT?.trim();
  if (!raw) return null;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) throw new Error(`HUB_METRICS_PORT must be a TCP port (1–65535), not "${raw}"`);
  if (env.PORT && Number(env.PORT) === port) throw new Error("HUB_METRICS_PORT must differ from PORT: metrics are never served on the public port");
  const host = env.HUB_METRICS_HOST?.trim() || "127.0.0.1";
  const token = env.HUB_METRICS_TOKEN?.trim() || null;
  if (token !== null && token.length < 16) throw new Error("HUB_METRICS_TOKEN must be at least 16 characters");
  return { port, host, token };
}

/**
 * @param {string | undefined} header
 * @param {string} token
 */
function bearerMatches(header, token) {
  const sent = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/**
 * Starts the listener; resolves once it listens.
 * @param {{ port: number, host: string, token: string | null }} settings
 * @param {{ error(obj: object, msg: string): void }} logger
 * @returns {Promise<http.Server>}
 */
export function startMetricsServer(settings, logger) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: metrics are at /metrics\n");
      return;
    }
    if (settings.token && !bearerMatches(req.headers.authorization, settings.token)) {
      res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' }).end("Unauthorized\n");
      return;
    }
    metricsText().then(
      ({ contentType, body }) => {
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (error) => {
        logger.error({ err: error }, "Collecting metrics failed");
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Collecting metrics failed\n");
      },
    );
  });
  // Scrapes are short; an idle scraper's connection is not kept past a scrape interval or two.
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
