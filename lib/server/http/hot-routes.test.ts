// The bridge server.mjs serves the hot routes through (hot-routes.ts), over real HTTP: method and
// path matching, params, the body, headers and cookies; and a body the handler does not read
// (refused by its size) costs the client neither its connection nor its next request.
import http, { type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stampClientAddress, trustedProxies } from "./client-address.mjs";
import { readRequestBody } from "./read-request-body";
import { hotRoutes, registerHotRoutes, registerKeptPages } from "./hot-routes";
import { routeHandler, type TPlainEndpoint } from "./plain-endpoint";

/** A plain endpoint that answers what it read: headers, a cookie, its params and the body (limit 16 bytes). */
const echoPlain: TPlainEndpoint = async (request, params) => ({
  status: 201,
  headers: { "x-plain": "yes" },
  json: {
    authorization: request.header("Authorization"), repeated: request.header("x-rep"), absent: request.header("x-none"),
    session: request.cookie("sessao") ?? null, address: request.header("x-hub-client-address"), params, body: await request.text(16),
  },
});

const BIG_PAGE = `<p>${"uma página de lançamento ".repeat(200)}</p>`;

let server: http.Server;
let port = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string | string[]> = {},
): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, path, method, agent, headers: { ...(body === undefined ? {} : { "content-type": "text/plain" }), ...headers } }, (res: IncomingMessage) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers, socket: res.socket }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A stream of CHUNKS numbered chunks of 64 KiB, counting how many were pulled and whether it was cancelled. */
const CHUNKS = 400;
const counted = {
  pulled: 0,
  cancelled: false,
  stream(): ReadableStream<Uint8Array> {
    this.pulled = 0;
    this.cancelled = false;
    return new ReadableStream<Uint8Array>({
      pull: (controller) => {
        if (this.pulled === CHUNKS) return controller.close();
        controller.enqueue(new Uint8Array(64 * 1024).fill(this.pulled++ % 256));
      },
      cancel: () => {
        this.cancelled = true;
      },
    });
  },
};

beforeAll(async () => {
  registerHotRoutes([
    { method: "POST", path: "/echo", handler: async (request) => new Response(`${(await readRequestBody(request, 16)) ?? "too large"}`, { status: 200 }) },
    {
      method: "GET",
      path: /^\/item\/(?<id>[^/]+)$/,
      handler: (_request, params) => {
        const headers = new Headers({ "x-item": params.id! });
        headers.append("set-cookie", "a=1; Path=/");
        headers.append("set-cookie", "b=2; Path=/");
        return new Response(null, { status: 204, headers });
      },
    },
    { method: "GET", path: "/boom", handler: () => { throw new Error("boom"); } },
    { method: "GET", path: "/address", handler: (request) => new Response(request.headers.get("x-hub-client-address")) },
    { method: "POST", path: "/plain", endpoint: echoPlain },
    { method: "GET", path: "/plain-empty", endpoint: () => ({ status: 204, headers: { "cache-control": "no-store" } }) },
    { method: "GET", path: /^\/plain-page\/(?<id>[^/]+)$/, endpoint: (_request, params) => ({ status: 200, headers: { "content-type": "text/html; charset=utf-8" }, text: `<p>${params.id}</p>` }) },
    { method: "POST", path: /^\/plain\/(?<id>[^/]+)$/, endpoint: echoPlain },
    { method: "GET", path: "/plain-boom", endpoint: () => { throw new Error("boom"); } },
    { method: "GET", path: "/plain-big", endpoint: () => ({ status: 200, headers: { "content-type": "text/html; charset=utf-8" }, text: BIG_PAGE }) },
    { method: "GET", path: "/stream", handler: () => new Response(counted.stream(), { status: 200 }) },
  ]);
  server = http.createServer((req, res) => {
    // What server.mjs's guard does first: the client's address stamped over whatever was sent.
    stampClientAddress(req, trustedProxies(undefined));
    const route = hotRoutes()?.match(req);
    if (route) void route(req, res);
    else res.writeHead(404).end("not hot");
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe("hot routes", () => {
  it("serves the registered method and path, with decoded params, headers and every cookie", async () => {
    const item = await send("GET", "/item/a%20b");
    expect(item.status).toBe(204);
    expect(item.headers["x-item"]).toBe("a b");
    expect(item.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    // The headers next.config.mjs gives Next's answers (security-headers.mjs).
    expect(item.headers).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" });
    expect((await send("POST", "/item/x", "")).text).toBe("not hot");
    expect((await send("GET", "/item/x/y")).text).toBe("not hot");
    expect((await send("POST", "/echo?q=1", "hello")).text).toBe("hello");
  });

  it("keeps the connection when the handler does not read a large body, so the next request on it is answered", async () => {
    const large = await send("POST", "/echo", "x".repeat(2_000_000));
    expect(large).toMatchObject({ status: 200, text: "too large" });
    const next = await send("POST", "/echo", "again");
    expect(next).toMatchObject({ status: 200, text: "again" });
    expect(next.socket).toBe(large.socket);
  });

  it("answers a handler that throws with a bare 500, and serves the next request", async () => {
    expect((await send("GET", "/boom")).status).toBe(500);
    expect((await send("POST", "/echo", "ok")).text).toBe("ok");
  });

  it("streams a body chunk by chunk, in order, all of it", async () => {
    const received = await new Promise<Buffer>((resolve, reject) => {
      http.get({ port, path: "/stream", agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve(Buffer.concat(chunks))).on("error", reject);
      });
    });
    expect(received.length).toBe(CHUNKS * 64 * 1024);
    for (let i = 0; i < CHUNKS; i++) expect(received[i * 64 * 1024 + 100]).toBe(i % 256);
  });

  it("pulls the stream only as fast as the client reads, and cancels it when the client goes away", async () => {
    const socket = await new Promise<import("node:net").Socket>((resolve) => {
      http.get({ port, path: "/stream", agent: false }, (res) => {
        res.pause(); // a client that stops reading
        resolve(res.socket);
      });
    });
    await new Promise((r) => setTimeout(r, 300));
    // Socket and kernel buffers hold a few MB; far from the 25 MB of the whole stream.
    expect(counted.pulled).toBeLessThan(CHUNKS / 2);
    expect(counted.cancelled).toBe(false);
    socket.destroy();
    await expect.poll(() => counted.cancelled).toBe(true);
    expect(counted.pulled).toBeLessThan(CHUNKS);
  });

  it("serves a plain endpoint on node:http with the answer its Next route gives for the same request", async () => {
    // Repeated headers, Authorization among them (which req.headers would cut to its first value).
    const cookie = "outro=1; sessao=abc%3D%3D; x=2";
    const headers = { authorization: ["Bearer a", "Bearer b"], "x-rep": ["1", "2"], cookie };
    const served = await send("POST", "/plain?q=1", "hello", headers);
    const request = new Request("http://hub.test/plain?q=1", {
      method: "POST", body: "hello",
      headers: [["authorization", "Bearer a"], ["authorization", "Bearer b"], ["x-rep", "1"], ["x-rep", "2"], ["cookie", cookie]],
    });
    const routed = await routeHandler(echoPlain)(request);
    expect(served.status).toBe(201);
    expect(routed.status).toBe(201);
    expect(JSON.parse(served.text)).toEqual({ authorization: "Bearer a, Bearer b", repeated: "1, 2", absent: null, session: "abc==", address: expect.stringMatching(/127\.0\.0\.1|::1/), params: {}, body: "hello" });
    expect({ ...JSON.parse(served.text), address: null }).toEqual(await routed.json());
    expect(served.headers["content-type"]).toBe(routed.headers.get("content-type"));
    expect(served.headers).toMatchObject({ "x-plain": "yes", "x-content-type-options": "nosniff", "x-frame-options": "DENY" });

    const empty = await send("GET", "/plain-empty");
    expect(empty).toMatchObject({ status: 204, text: "" });
    expect(empty.headers["content-type"]).toBeUndefined();

    // A path pattern's named groups, decoded, are the endpoint's params; a text body keeps its type.
    expect(JSON.parse((await send("POST", "/plain/a%20b", "x")).text)).toMatchObject({ params: { id: "a b" }, session: null });
    const page = await send("GET", "/plain-page/7");
    expect(page).toMatchObject({ status: 200, text: "<p>7</p>" });
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("gives both kinds of handler the address the guard stamped, never one the client sent under that name", async () => {
    const forged = { "x-hub-client-address": "203.0.113.9" };
    const plain = JSON.parse((await send("POST", "/plain", "", forged)).text) as { address: string };
    const web = (await send("GET", "/address", undefined, forged)).text;
    for (const address of [plain.address, web]) {
      expect(address).not.toContain("203.0.113.9");
      expect(address).toMatch(/127\.0\.0\.1|::1/);
    }
  });

  it("compresses a plain endpoint's answer itself, as the middleware would: brotli when accepted, Vary either way", async () => {
    const compressed = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http.get({ port, path: "/plain-big", headers: { "accept-encoding": "gzip, br" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on("error", reject);
    });
    expect(compressed.headers).toMatchObject({ "content-encoding": "br", vary: "Accept-Encoding" });
    expect(brotliDecompressSync(compressed.body).toString()).toBe(BIG_PAGE);
    const plain = await send("GET", "/plain-big");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(plain.text).toBe(BIG_PAGE);
  });

  it("gives a plain endpoint null for a body over its limit, by Content-Length or as it arrives, and keeps the connection", async () => {
    const large = await send("POST", "/plain", "x".repeat(2_000_000));
    expect(JSON.parse(large.text)).toMatchObject({ body: null });
    // Without a Content-Length (chunked), the limit is found while reading.
    const chunked = await new Promise<string>((resolve, reject) => {
      const req = http.request({ port, path: "/plain", method: "POST", agent }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (c: string) => (text += c)).on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.write("0123456789");
      setTimeout(() => req.end("0123456789"), 50);
    });
    expect(JSON.parse(chunked)).toMatchObject({ body: null });
    const next = await send("POST", "/plain", "again");
    expect(JSON.parse(next.text)).toMatchObject({ body: "again" });
    expect(next.socket).toBe(large.socket);
  });

  it("answers a plain endpoint that throws with a bare 500, and serves the next request", async () => {
    const failed = await send("GET", "/plain-boom");
    expect(failed).toMatchObject({ status: 500, text: "" });
    expect(failed.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse((await send("POST", "/plain", "ok")).text)).toMatchObject({ body: "ok" });
  });
});

describe("kept pages' keys", () => {
  it("asks the page's key for a GET of its exact path, with the query as sent, and never for Next's router", async () => {
    const asked: string[] = [];
    registerKeptPages([{ path: "/login", key: async (request, query) => (asked.push(`${query.get("escola")} ${request.header("cookie")}`), "k") }]);
    const kept = (globalThis as Record<symbol, { match(req: IncomingMessage): Promise<string | null> | null } | undefined>)[Symbol.for("hub.keptPages")]!;
    const req = (url: string, method = "GET", headers: Record<string, string> = {}) => ({ url, method, headers, headersDistinct: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])) }) as unknown as IncomingMessage;
    expect(await kept.match(req("/login?escola=abc", "GET", { cookie: "a=1" }))).toBe("k");
    expect(asked).toEqual(["abc a=1"]);
    for (const other of [req("/login", "POST"), req("/login", "HEAD"), req("/login/x"), req("//?escola=x"), req("//login"), req("/login?_rsc=1"), req("/login", "GET", { rsc: "1" }), req("/login", "GET", { "next-router-prefetch": "1" })]) {
      expect(kept.match(other)).toBeNull();
    }
    expect(asked).toHaveLength(1);
  });
});
