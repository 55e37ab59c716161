// Kept pages on a real HTTP server behind the hub's compression, as server.mjs serves them: a page
// is rendered once per URL and key, sent again as it was, and never kept when it sets a cookie,
// is not a 200, or is too big.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCompression } from "./compression.mjs";
import { createKeptPages } from "./kept-pages.mjs";

const PAGE = `<!doctype html><html lang="pt-BR"><title>Entrar</title>${"<p>Use o e-mail ou o CPF cadastrado pela sua escola.</p>".repeat(40)}</html>`;

let renders = 0;
let kept = createKeptPages({ maxPages: 3, maxBytes: 8 * 1024, compressed: true });
const compress = createCompression();

/** What a page's renderer (Next, in the hub) writes: headers by setHeader or writeHead, a body in chunks. */
const pages: Record<string, (res: ServerResponse) => void> = {
  "/login": (res) => {
    res.statusCode = 200;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("X-Frame-Options", "DENY");
    res.write(PAGE.slice(0, 100));
    res.end(Buffer.from(PAGE.slice(100)));
  },
  "/head": (res) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "X-Page": "head" }).end(PAGE),
  "/cookie": (res) => {
    res.setHeader("Set-Cookie", "a=1");
    res.end(PAGE);
  },
  "/missing": (res) => {
    res.statusCode = 404;
    res.end(PAGE);
  },
  "/big": (res) => res.end(PAGE.repeat(10)),
};

let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    compress(req, res);
    res.setHeader("X-Request-Id", String(Math.random()));
    const url = req.url ?? "/";
    const path = url.split("?")[0]!;
    const key = String(req.headers["x-key"] ?? "k");
    if (kept.send(req, res, url, key)) return;
    kept.keep(res, url, key);
    renders++;
    pages[path]!(res);
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  renders = 0;
  kept = createKeptPages({ maxPages: 3, maxBytes: 8 * 1024, compressed: true });
});

/** The answer as the client gets it, decompressed by hand (node:http, not fetch, so the encoding is seen). */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const decode = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync }[res.headers["content-encoding"] ?? ""];
        const body = decode ? decode(raw) : raw;
        resolve({ status: res.statusCode!, headers: res.headers, body: body.toString("utf8") });
      });
    }).on("error", reject).end();
  });
}

describe("kept pages", () => {
  it("renders a page once per URL and key and sends it again as it was, compressed or not", async () => {
    const first = await get("/login?callbackUrl=%2F", { "accept-encoding": "br" });
    const again = await get("/login?callbackUrl=%2F", { "accept-encoding": "br" });
    const plain = await get("/login?callbackUrl=%2F");
    expect(renders).toBe(1);
    for (const answer of [first, again, plain]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(PAGE);
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers.vary).toBe("Accept-Encoding");
    }
    expect([first.headers["content-encoding"], again.headers["content-encoding"], plain.headers["content-encoding"]]).toEqual(["br", "br", undefined]);
    // Each answer keeps its own request id; the kept one is not the render's.
    expect(again.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
  });

  it("is sent in the encoding the compression middleware picks for each Accept-Encoding", async () => {
    for (const [i, accept] of ["br", "gzip, deflate, br", "gzip", "deflate", "br;q=0, gzip;q=0.5, deflate", "identity", "*", "compress"].entries()) {
      const rendered = await get(`/login?${i}`, { "accept-encoding": accept });
      const keptAnswer = await get(`/login?${i}`, { "accept-encoding": accept });
      expect(keptAnswer.headers["content-encoding"], accept).toBe(rendered.headers["content-encoding"]);
      expect(keptAnswer.body).toBe(PAGE);
    }
    expect(renders).toBe(8);
  });

  it("renders again for another URL or another key", async () => {
    await get("/login");
    await get("/login?error=CredentialsSignin");
    await get("/login", { "x-key": "providers changed" });
    await get("/login");
    expect(renders).toBe(3);
  });

  it("keeps the headers a renderer hands to writeHead", async () => {
    await get("/head");
    const again = await get("/head");
    expect(renders).toBe(1);
    expect(again.headers["x-page"]).toBe("head");
    expect(again.body).toBe(PAGE);
  });

  it("never keeps an answer with a cookie, another status or a body over the limit", async () => {
    for (const path of ["/cookie", "/missing", "/big"]) {
      const first = await get(path);
      const again = await get(path);
      expect(again.body).toBe(first.body);
    }
    expect(renders).toBe(6);
    expect(kept.size()).toBe(0);
  });

  it("keeps at most its limit of pages, forgetting the oldest first", async () => {
    await get("/login?a");
    await get("/login?b");
    await get("/login?c");
    await get("/login?d");
    expect(kept.size()).toBe(3);
    await get("/login?d");
    await get("/login?a");
    expect(renders).toBe(5);
  });
});
