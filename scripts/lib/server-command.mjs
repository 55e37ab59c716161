// How the hub's server process is started, by `npm start`, the e2e server and the benchmarks
// alike: node with these V8 flags, then server.mjs. A deployment that starts server.mjs itself
// should pass the same flags (README, "Running it yourself").
//
// --max-semi-space-size=24 (MB; V8's default here is 16): the Data API writes its pages and
// feeds from many short-lived strings, and with the default young generation a full sync walk
// spent a quarter of the process's time in the garbage collector, copying the chunk still being
// written at every scavenge. docs/decisions/030-young-generation-for-the-feed.md has the figures.
//
// --heap-growing-percent=100: after a full collection V8 lets the old generation grow to twice
// what survived, not up to four times (its default for a fast collector). Under the Data API's
// load the server held about 50 MB live and let 150–200 MB of promoted garbage pile up between
// full collections: a whole-feed walk peaked at 375–410 MB, and with this flag at 271–273 MB for a
// few percent of throughput (decision 030, "Later").
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=24", "--heap-growing-percent=100"];

/** The argument list for `spawn(process.execPath, …)`: the flags, any of the caller's, then server.mjs. */
export function serverArgs(...extraFlags) {
  return [...SERVER_NODE_FLAGS, ...extraFlags, "server.mjs"];
}
