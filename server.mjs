// @ts-check
// The hub's production server: Next's request handler behind the hub's own compression, which
// Next cannot be told to do (docs/decisions/007-compression-in-a-custom-server.md).
// `next({ dev: false })` goes through the same router-server as `next start`. next.config.mjs
// (distDir from HUB_NEXT_DIST_DIR, `compress: false`) is loaded from `dir` as `next start` loads it.
import http from "node:http";
import { compressionEnabled, createCompression } from "./lib/server/http/compression.mjs";

// React and Next pick their production builds when first loaded, so this precedes importing next.
// (Next's types make NODE_ENV read-only; at run time it is an ordinary variable.)
/** @type {Record<string, string | undefined>} */ (process.env).NODE_ENV ??= "production";
const { default: next } = await import("next");

const port = Number(process.env.PORT ?? 3000);
const SHUTDOWN_GRACE_MS = 10_000;

const app = next({ dev: false, dir: import.meta.dirname, port });
await app.prepare();
const handle = app.getRequestHandler();
const compress = compressionEnabled() ? createCompression() : null;

// The Data API without org_id, with a trailing slash, is the contract's "org_id not informed" (400
// after the key check), not Next's 308 to the same URL without the slash.
const DATA_API_WITHOUT_ORG = /^\/manager\/v1\/(data|summary)\/(?=\?|$)/;

const server = http.createServer((req, res) => {
  if (req.url) req.url = req.url.replace(DATA_API_WITHOUT_ORG, "/manager/v1/$1");
  compress?.(req, res);
  handle(req, res).catch((error) => {
    // Next answers its own errors; this is for a failure of the handler itself.
    console.error(`Failed to handle ${req.method} ${req.url}:`, error);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
});

server.on("error", (error) => {
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  console.error(code === "EADDRINUSE" ? `✗ Port ${port} is already in use: stop what uses it or set PORT.` : `✗ The server failed: ${error.message}`);
  process.exit(1);
});

// No host: all interfaces, as `next start` listens.
server.listen(port, () => {
  console.log(`✓ Hub ready on http://localhost:${port} (compression ${compress ? "br q4 / gzip 1" : "off: HUB_COMPRESSION=0"})`);
});

let closing = false;
/** Stops accepting connections, lets in-flight requests finish (up to a grace period), then exits. */
function shutdown() {
  if (closing) return; // a terminal's Ctrl-C reaches us twice: directly and through npm start
  closing = true;
  server.close(() => app.close().finally(() => process.exit(0)));
  // close() already ends idle keep-alive connections; a request still streaming after the grace
  // period is cut so the process does exit.
  setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
