// @ts-check
// The hub's public base URL, decided in one place for the two sides that read it: lib/env.ts
// (which validates HUB_BASE_URL first) and what node runs without a build step (server.mjs's
// redirect to it, the request guard's error pages, scripts/start.mjs). Plain JavaScript for them.

/**
 * HUB_BASE_URL without its trailing slashes, or `http://localhost:$PORT` (PORT 3000 when unset).
 * @param {{ HUB_BASE_URL?: string | undefined; PORT?: string | number | undefined; [name: string]: unknown }} environment process.env, or lib/env.ts's parsed settings
 * @returns {string}
 */
export function baseUrlFrom(environment) {
  const port = environment.PORT === undefined || environment.PORT === "" ? 3000 : environment.PORT;
  return (environment.HUB_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
}
