// The floor of a OneRoster page (bench/data-api/growth.ts --only oneroster): a bare node:http
// server that, for each page, runs the statements the hub's endpoint sent for it (captured by the
// growth bench: "its own SQL"), one after the other on its own connection, then sends the hub's own
// answer for that page, the same bytes, through the hub's compression (lib/server/http/
// compression.mjs). What it leaves out is what the hub does beyond the SQL and the body's delivery:
// the bearer check, shaping the rows into OneRoster objects under the reader's rule and ids,
// serializing them, the access log, the request id and log line. Started by growth.ts:
//
//   npx tsx bench/data-api/oneroster-floor.ts <pages.json>     # prints "ready <port>"
//
// pages.json: [{ url, statements: [{ sql, params, name? }], body (base64) }, ...]; GET /<index> serves one.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { createCompression } from "@/lib/server/http/compression.mjs";
import { replay, type TStatement } from "./replay";

interface TFloorPage {
  url: string;
  statements: TStatement[];
  body: string;
}

const pages = (JSON.parse(readFileSync(process.argv[2]!, "utf8")) as TFloorPage[]).map((page) => ({ ...page, bytes: Buffer.from(page.body, "base64") }));
const pools = new Map<string, pg.Pool>();
// As the hub connects (lib/server/db/database.ts): no JIT.
const poolOf = (url: string) => pools.get(url) ?? pools.set(url, new pg.Pool({ connectionString: url, max: 2, options: "-c jit=off" })).get(url)!;
const compress = createCompression();

const server = http.createServer((req, res) => {
  const page = pages[Number((req.url ?? "/").slice(1))];
  if (!page) return void res.writeHead(404).end();
  compress(req, res);
  void (async () => {
    const pool = poolOf(page.url);
    for (const statement of page.statements) await replay(pool, statement);
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Cache-Control", "no-store");
    res.end(page.bytes);
  })().catch((error: unknown) => {
    console.error(error);
    res.writeHead(500).end();
  });
});
server.listen(0, "127.0.0.1", () => console.log(`ready ${(server.address() as AddressInfo).port}`));
