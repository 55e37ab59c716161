// @ts-check
// Graceful shutdown of server.mjs's HTTP server (plain JavaScript: no build step). On SIGTERM a
// process manager wants the port freed quickly and no request lost: stop accepting, close every
// idle keep-alive connection at once (server.close() alone leaves them open until their
// keep-alive timeout, and a client that keeps sending on them keeps the server busy), let the
// requests in flight finish with `Connection: close` so their sockets are not reused, and cut
// whatever is still running after a grace period. Decision: docs/decisions/009.

/**
 * Puts `server` in draining mode. Resolves once every connection is gone (`server.close`'s
 * callback), at the latest `graceMs` after the call, when the remaining connections are destroyed.
 * Call it once; a second call returns the same promise.
 * @param {import("node:http").Server} server
 * @param {{ graceMs: number }} options
 * @returns {Promise<{ forced: boolean }>}
 */
export function drainServer(server, { graceMs }) {
  const state = /** @type {{ draining?: Promise<{ forced: boolean }> }} */ (server);
  if (state.draining) return state.draining;
  state.draining = new Promise((resolve) => {
    let forced = false;
    // Requests that arrive on a connection in the instant before it is closed still get an
    // answer, and tell the client not to reuse the socket.
    // A connection whose response had its headers sent before the drain began stays keep-alive:
    // once that response is done, close the connections that are idle again.
    const closeIdleAfter = (/** @type {import("node:http").ServerResponse} */ res) =>
      res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
    server.on("request", (_req, res) => {
      res.setHeader("Connection", "close");
      closeIdleAfter(res);
    });
    for (const res of inFlight(server)) {
      if (!res.headersSent) res.setHeader("Connection", "close");
      closeIdleAfter(res);
    }
    const timer = setTimeout(() => {
      forced = true;
      server.closeAllConnections();
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve({ forced });
    });
    server.closeIdleConnections();
  });
  return state.draining;
}

/**
 * Tracks the responses being written, so draining can mark them `Connection: close`, or, when
 * their headers are already sent, close their connection as soon as they are done. Call it
 * right after creating the server.
 * @param {import("node:http").Server} server
 */
export function trackResponses(server) {
  /** @type {Set<import("node:http").ServerResponse>} */
  const open = new Set();
  server.on("request", (_req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
  });
  /** @type {{ inFlight?: Set<import("node:http").ServerResponse> }} */ (server).inFlight = open;
}

/**
 * @param {import("node:http").Server} server
 * @returns {Iterable<import("node:http").ServerResponse>}
 */
function inFlight(server) {
  return /** @type {{ inFlight?: Set<import("node:http").ServerResponse> }} */ (server).inFlight ?? [];
}
