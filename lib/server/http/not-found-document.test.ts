// replaceErrorDocument (server.mjs) on a real HTTP server, behind the hub's compression as in
// server.mjs: a 404 that opens with Next's error document is answered by the not-found render
// instead, with none of the first answer's headers or bytes; anything else goes out untouched.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompression } from "./compression.mjs";
import { isErrorDocument, mayReplaceErrorDocument, replaceErrorDocument } from "./not-found-document.mjs";

const ERROR_DOCUMENT = '<!DOCTYPE html><html id="__next_error__"><head></head><body></body></html>';
const NOT_FOUND_PAGE = '<!DOCTYPE html><html lang="pt-BR"><body><h1>Página não encontrada</h1></body></html>';
const BIG = "x".repeat(4096); // past the compression threshold

/** What Next does for each path, on the response it is given (flushHeaders, then chunks, as Next pipes). */
const pages: Record<string, (res: ServerResponse) => void> = {
  "/error-document": (res) => {
    res.statusCode = 404;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Link", "</error.css>; rel=preload; as=style");
    res.flushHeaders();
    res.write(ERROR_DOCUMENT);
    res.write(`<script>${BIG}</script>`);
    res.end();
  },
  "/own-not-found": (res) => {
    res.statusCode = 404;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.flushHeaders();
    res.write(`${NOT_FOUND_PAGE}<!-- unmatched URL -->`);
    res.end();
  },
  "/found": (res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.flushHeaders();
    res.write(`<!DOCTYPE html><html lang="pt-BR"><body>${BIG}`);
    res.end("</body></html>");
  },
};

let server: Server;
let port = 0;
const renders: string[] = [];

beforeAll(async () => {
  const compress = createCompression();
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    compress(req, res);
    res.setHeader("X-Request-Id", "r-1");
    if (mayReplaceErrorDocument(req))
      replaceErrorDocument(res, () => {
        renders.push(req.url ?? "");
        res.statusCode = 404;
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        res.end(NOT_FOUND_PAGE);
      });
    pages[req.url ?? ""]!(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => {
    server.close(resolve);
    server.closeAllConnections();
  });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { "accept-encoding": "br", ...headers } });

describe("replaceErrorDocument", () => {
  it("answers Next's 404 error document with the not-found render, none of the first answer's headers kept", async () => {
    const response = await get("/error-document");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(NOT_FOUND_PAGE);
    expect(response.headers.get("link")).toBeNull();
    expect(response.headers.get("x-request-id")).toBe("r-1");
    expect(renders).toContain("/error-document");
  });

  it("leaves a 404 that is not the error document, a found page and an RSC request alone", async () => {
    renders.length = 0;
    const own = await get("/own-not-found");
    expect(own.status).toBe(404);
    expect(await own.text()).toContain("<!-- unmatched URL -->");
    const found = await get("/found");
    expect(found.status).toBe(200);
    expect(found.headers.get("content-encoding")).toBe("br");
    expect(await found.text()).toMatch(/^<!DOCTYPE html><html lang="pt-BR"><body>x+<\/body><\/html>$/);
    const rsc = await get("/error-document", { rsc: "1" });
    expect(rsc.status).toBe(404);
    expect(await rsc.text()).toContain('id="__next_error__"');
    expect(renders).toEqual([]);
  });

  it("recognises the error document by its opening, as text or bytes", () => {
    expect(isErrorDocument(ERROR_DOCUMENT)).toBe(true);
    expect(isErrorDocument(Buffer.from(ERROR_DOCUMENT))).toBe(true);
    expect(isErrorDocument(new TextEncoder().encode(ERROR_DOCUMENT))).toBe(true);
    expect(isErrorDocument(NOT_FOUND_PAGE)).toBe(false);
    expect(isErrorDocument(undefined)).toBe(false);
  });
});
