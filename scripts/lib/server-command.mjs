// @ts-check
// How the hub's server process is started, by `npm start`, the e2e server and the benchmarks
// alike: node with these V8 flags, then server.mjs. A deployment that starts server.mjs itself
// should pass the same flags (README, "Architecture").
//
// --max-semi-space-size (MB; V8's default here is 16):
// - 24 on PostgreSQL: the Data API writes its pages and feeds from many short-lived strings, and
//   with the default young generation a full sync walk of a million students spent a quarter of
//   the process's time in the garbage collector, copying the chunk still being written at every
//   scavenge. docs/decisions/030-young-generation-for-the-feed.md has the figures.
// - 8 on the embedded database (no DATABASE_URL): there PostgreSQL's own memory (its WebAssembly
//   heap, about 140 MB) is in the server's process too, and under the hot routes' mixed load the
//   server peaked at 405–414 MB with 24 and at 363 MB with 8, for the same throughput (decision
//   030, "On the embedded database"). Its feeds are a school's, not a network of a million.
//
// --heap-growing-percent=100: after a full collection V8 lets the old generation grow to twice
// what survived, not up to four times (its default for a fast collector). Under the Data API's
// load the server held about 50 MB live and let 150–200 MB of promoted garbage pile up between
// full collections: a whole-feed walk peaked at 375–410 MB, and with this flag at 271–273 MB for a
// few percent of throughput (decision 030, "Later").

/**
 * The V8 flags for a server whose environment is `env` (the embedded database when it has no
 * DATABASE_URL, as lib/env.ts decides).
 * @param {Record<string, string | undefined>} env
 */
function serverNodeFlags(env) {
  return [env.DATABASE_URL ? "--max-semi-space-size=24" : "--max-semi-space-size=8", "--heap-growing-percent=100"];
}

/**
 * The argument list for `spawn(process.execPath, …)` of a server that runs with `env`: the
 * flags, any of the caller's, then server.mjs.
 * @param {Record<string, string | undefined>} env
 * @param {string[]} extraFlags
 */
export function serverArgs(env, ...extraFlags) {
  return [...serverNodeFlags(env), ...extraFlags, "server.mjs"];
}

/**
 * The arguments of `spawn` that start server.mjs with `env`: node, the flags decided from that
 * same `env` and the caller's, and the caller's options with `env` as the server's environment.
 * Every script starts the server through this, so its flags and its database cannot disagree.
 * @param {NodeJS.ProcessEnv} env
 * @param {Omit<import("node:child_process").SpawnOptions, "env">} options
 * @param {string[]} extraFlags
 * @returns {[string, string[], import("node:child_process").SpawnOptions]}
 */
export function serverSpawn(env, options, ...extraFlags) {
  return [process.execPath, serverArgs(env, ...extraFlags), { ...options, env }];
}
