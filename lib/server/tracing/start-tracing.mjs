// @ts-check
// OpenTelemetry traces, off unless configured (docs/operations.md, "Traces";
// docs/decisions/041-metrics-and-traces.md). server.mjs calls startTracing() before it loads
// Next, so the http and pg modules are patched before anything uses them: each request is a
// server span carrying the request id the log lines carry (`hub.request_id`), its database
// statements are child spans (pg, PostgreSQL only: the embedded PGlite runs in process), and the
// webhook worker's POSTs are client spans under a span per delivered batch. Configured with the
// standard OTEL_* variables (endpoint, protocol, headers, sampler, service name); nothing of the
// SDK is loaded when they are absent, so a hub without traces pays nothing.
import { createRequire } from "node:module";

/**
 * Whether the environment asks for traces: an OTLP endpoint, or OTEL_TRACES_EXPORTER naming an
 * exporter; never with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 * @param {Record<string, string | undefined>} env
 */
export function tracingRequested(env) {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === "none") return false;
  return Boolean(exporter || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** @typedef {(span: { requestId: string, method: string, route: string, family: string }) => void} TTagRequest */

/** @type {TTagRequest} */
let tag = () => undefined;

/**
 * Names the active request span (server.mjs calls it first thing in each request): the request
 * id, the route as the access log shows it (no ids, no query) and its family. A no-op without traces.
 * @type {TTagRequest}
 */
export function tagRequestSpan(request) {
  tag(request);
}

/**
 * Starts the SDK when tracingRequested(env); resolves to whether it did. `ignorePorts`: local
 * ports whose requests are not traced (the metrics listener's scrapes).
 * @param {Record<string, string | undefined>} env
 * @param {{ ignorePorts?: number[], onShutdown?: (task: () => Promise<void>) => void }} [options]
 */
export async function startTracing(env, options = {}) {
  if (!tracingRequested(env)) return false;
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, api] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-pg"),
    import("@opentelemetry/api"),
  ]);
  const ignorePorts = new Set(options.ignorePorts ?? []);
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME?.trim() ? {} : { serviceName: "hub" }),
    // Metrics are Prometheus's (registry.mjs), logs are pino's lines on stdout: only traces here.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => ignorePorts.has(req.socket.localPort ?? 0),
        // A client call outside a request or a delivery (a poll) would be a trace of its own.
        requireParentforOutgoingSpans: true,
      }),
      // The webhook worker polls its queue several times a second: those statements are not
      // traces; a request's and a delivered batch's statements are (their parent span).
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // The instrumentations patch a module when it is required. node:http is already loaded (this
  // module's importer imported it), and an ESM import never passes through require: one require
  // here patches the shared module object, which server.mjs's import is too.
  const require = createRequire(import.meta.url);
  require("node:http");
  require("node:https");
  tag = ({ requestId, method, route, family }) => {
    const span = api.trace.getActiveSpan();
    if (!span) return;
    span.updateName(`${method} ${route}`);
    span.setAttribute("hub.request_id", requestId);
    span.setAttribute("http.route", route);
    span.setAttribute("hub.route_family", family);
  };
  options.onShutdown?.(() => sdk.shutdown());
  return true;
}
