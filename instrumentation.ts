// Run once by Next, on the server's first request (server.mjs sends itself one). Everything it
// does needs Node.js, so it lives in instrumentation-node.ts, imported only under that runtime:
// written as Next documents it, the Edge build leaves the import out instead of bundling (and
// warning about) the whole server.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") await (await import("./instrumentation-node")).registerNode();
}
