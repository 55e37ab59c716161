// The hub's compression policy on a real HTTP server, read with node:http so the raw bytes and
// headers are what the client gets (fetch would decompress them out of sight).
import { createServer, request, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, createGunzip, gunzipSync, inflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressAhead, compressionEnabled, compressWhole, createCompression, encodingFor } from "./compression.mjs";

// A JSON page like the Data API's: large enough to pass the 1 KB threshold many times over.
const BIG = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, evento: "insert", registro: { nome: `Aluno ${i}`, turma: `7º ano ${i % 3}` } })));
const SMALL = JSON.stringify({ ok: true });
const FIRST_CHUNK = "primeiro pedaço ".repeat(8);

type TFlushable = ServerResponse & { flush(): void };

/** Released by the client once it has read the streamed first chunk; the handler ends after. */
let releaseStream: () => void = () => {};

/** setHeader + end, not writeHead: the middleware then knows the body's length (the threshold). */
function send(res: ServerResponse, body: string, headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries({ "Content-Type": "application/json", ...headers })) res.setHeader(name, value);
  res.end(body);
}

const handlers: Record<string, (res: ServerResponse) => void> = {
  "/big": (res) => send(res, BIG),
  "/small": (res) => send(res, SMALL),
  "/no-transform": (res) => send(res, BIG, { "Cache-Control": "no-transform" }),
  "/stream": (res) => {
    res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
    res.write(FIRST_CHUNK);
    (res as TFlushable).flush();
    releaseStream = () => res.end("fim");
  },
};

// Answers sent whole (a plain endpoint's, a kept page's): type, Cache-Control and body.
const WHOLE: Array<[string, string | undefined, string]> = [
  ["application/json", undefined, BIG],
  ["application/json", undefined, SMALL],
  ["text/html; charset=utf-8", undefined, BIG],
  ["text/html; charset=utf-8", "no-store, no-transform", BIG],
  ["image/png", undefined, BIG],
];

let server: Server;
let port = 0;
/** The same answers, compressed whole with encodingFor and compressAhead instead of the middleware. */
let whole: Server;
let wholePort = 0;
/** The same answers written as Next writes a page (flushHeaders, chunks each followed by flush()), through compressWhole. */
let page: Server;
let pagePort = 0;
const HUGE = "x".repeat(2 * 1024 * 1024 + 10_000);

beforeAll(async () => {
  const compress = createCompression();
  const wholeCase = (url: string | undefined) => WHOLE[Number(url?.slice("/whole/".length))]!;
  const setWhole = (res: ServerResponse, [type, cacheControl]: (typeof WHOLE)[number]) => {
    res.setHeader("Content-Type", type);
    if (cacheControl) res.setHeader("Cache-Control", cacheControl);
  };
  server = createServer((req, res) => {
    compress(req, res);
    if (!req.url?.startsWith("/whole/")) return handlers[req.url ?? ""]!(res);
    const answer = wholeCase(req.url);
    setWhole(res, answer);
    res.end(answer[2]);
  });
  whole = createServer((req, res) => {
    const answer = wholeCase(req.url);
    setWhole(res, answer);
    const encoding = encodingFor(req, res, Buffer.byteLength(answer[2]));
    if (encoding === "identity") return res.end(answer[2]);
    res.setHeader("Content-Encoding", encoding);
    res.end(compressAhead(Buffer.from(answer[2]), encoding));
  });
  page = createServer((req, res) => {
    compressWhole(req, res);
    const [type, cacheControl, body] = req.url === "/huge" ? (["text/html", undefined, HUGE] as const) : wholeCase(req.url);
    setWhole(res, [type, cacheControl, body]);
    res.flushHeaders();
    const flushable = res as TFlushable;
    const write = (at: number) => {
      if (at >= body.length) return void res.end();
      res.write(body.slice(at, at + 700));
      if (typeof flushable.flush === "function") flushable.flush();
      setImmediate(() => write(at + 700));
    };
    write(0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => whole.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  wholePort = (whole.address() as AddressInfo).port;
  pagePort = (page.address() as AddressInfo).port;
});

afterAll(async () => {
  releaseStream();
  await Promise.all(
    [server, whole, page].map(
      (s) =>
        new Promise((resolve) => {
          s.close(resolve);
          s.closeAllConnections(); // the client's keep-alive sockets would hold close() for 4 s
        }),
    ),
  );
});

interface TRaw {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function get(path: string, acceptEncoding?: string, { to = port, method = "GET" } = {}): Promise<TRaw> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
    request({ host: "127.0.0.1", port: to, path, headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

describe("compression", () => {
  it("answers gzip at level 1 when the client accepts gzip and deflate", async () => {
    const { headers, body } = await get("/big", "gzip, deflate");
    expect(headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(body).toString()).toBe(BIG);
    // RFC 1952 XFL: zlib writes 4 ("fastest") only for level 1; level 6, Next's, writes 0.
    expect(body[8]).toBe(4);
  });

  it("answers brotli when the client accepts br", async () => {
    const { headers, body } = await get("/big", "gzip, deflate, br");
    expect(headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(body).toString()).toBe(BIG);
  });

  it("sends the body as it is without Accept-Encoding or with identity", async () => {
    for (const accept of [undefined, "identity"]) {
      const { headers, body } = await get("/big", accept);
      expect(headers["content-encoding"]).toBeUndefined();
      expect(body.toString()).toBe(BIG);
    }
  });

  it("does not compress a body under 1 KB", async () => {
    const { headers, body } = await get("/small", "gzip, br");
    expect(headers["content-encoding"]).toBeUndefined();
    expect(body.toString()).toBe(SMALL);
  });

  it("does not compress a response marked Cache-Control: no-transform", async () => {
    const { headers, body } = await get("/no-transform", "gzip, br");
    expect(headers["content-encoding"]).toBeUndefined();
    expect(body.toString()).toBe(BIG);
  });

  it("says the answer varies with Accept-Encoding", async () => {
    for (const accept of ["gzip", undefined]) {
      const { headers } = await get("/big", accept);
      expect(headers.vary?.toLowerCase()).toContain("accept-encoding");
    }
  });

  it("delivers a flushed chunk of a streamed response before the response ends", async () => {
    const received = await new Promise<{ encoding: string | undefined; first: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the flushed chunk did not arrive before res.end()")), 3_000);
      request({ host: "127.0.0.1", port, path: "/stream", headers: { "accept-encoding": "gzip" } }, (res) => {
        let text = "";
        const gunzip = res.pipe(createGunzip()).setEncoding("utf8");
        gunzip.on("data", (c: string) => {
          text += c;
          if (text.length < FIRST_CHUNK.length) return;
          clearTimeout(timer);
          resolve({ encoding: res.headers["content-encoding"], first: text });
          releaseStream();
        });
        gunzip.on("error", reject);
      })
        .on("error", reject)
        .end();
    });
    expect(received.encoding).toBe("gzip");
    expect(received.first).toBe(FIRST_CHUNK);
  });

  it("compresses an answer sent whole as the middleware compresses it: same encoding, same Vary, same bytes once decoded", async () => {
    const decoders: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync };
    const decode = (raw: TRaw) => decoders[raw.headers["content-encoding"] ?? ""]?.(raw.body) ?? raw.body;
    for (const [i, [type, cacheControl]] of WHOLE.entries()) {
      for (const accept of [undefined, "identity", "gzip, deflate, br", "gzip", "deflate", "br;q=0, gzip", "*", "compress"]) {
        for (const method of ["GET", "HEAD"]) {
          const byMiddleware = await get(`/whole/${i}`, accept, { method });
          const label = `${type} ${cacheControl ?? ""} ${WHOLE[i]![2].length} bytes, ${method}, Accept-Encoding: ${accept}`;
          // Sent whole by an endpoint, and written in chunks as Next writes a page.
          for (const to of [wholePort, pagePort]) {
            const sentWhole = await get(`/whole/${i}`, accept, { to, method });
            expect(sentWhole.headers["content-encoding"], label).toBe(byMiddleware.headers["content-encoding"]);
            expect(sentWhole.headers.vary, label).toBe(byMiddleware.headers.vary);
            expect(decode(sentWhole).toString(), label).toBe(decode(byMiddleware).toString());
          }
          // A page held whole says its length.
          const held = await get(`/whole/${i}`, accept, { to: pagePort, method });
          if (method === "GET") expect(Number(held.headers["content-length"]), label).toBe(held.body.byteLength);
        }
      }
    }
  });

  it("sends a page too big to hold as it comes, uncompressed and whole", async () => {
    const { headers, body } = await get("/huge", "br", { to: pagePort });
    expect(headers["content-encoding"]).toBeUndefined();
    expect(headers.vary).toBe("Accept-Encoding");
    expect(body.toString()).toBe(HUGE);
  });

  it("is off only with HUB_COMPRESSION=0", () => {
    expect(compressionEnabled({})).toBe(true);
    expect(compressionEnabled({ HUB_COMPRESSION: "1" })).toBe(true);
    expect(compressionEnabled({ HUB_COMPRESSION: "0" })).toBe(false);
  });
});
