// The request guard server.mjs runs before Next: what it refuses, and how it answers.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { baseUrlFrom } from "@/lib/base-url.mjs";
import { answerClientError, checkMultipartBody, checkRequest, isPageMultipartPost, MAX_URL_BYTES, routeHandlerMatcher, sendRejection } from "./request-guard.mjs";

const get = (url: string, headers: Record<string, string> = {}) => checkRequest({ method: "GET", url, headers });
const post = (url: string, headers: Record<string, string>) => checkRequest({ method: "POST", url, headers });

describe("checkRequest", () => {
  it.each(["/manager/v1/data/%ZZ", "/assets/%", "/launch/%ZZ", "/api/auth/%FF%FE", "/a/%E0%A4%A", "/x%C0%AF"])(
    "refuses the malformed path %s with 400",
    (url) => {
      expect(get(url)).toEqual({ status: 400, message: expect.stringMatching(/codificação/) });
    },
  );

  it.each(["/login?client_id=a%00b", "/oauth/authorize?x=%00", "/a%00", "/a\0b"])("refuses a NUL byte in %j with 400", (url) => {
    expect(get(url)?.status).toBe(400);
  });

  it("stamps the client's address over whatever the client sent as X-Hub-Client-Address (no trusted proxy: the peer's)", () => {
    const headers: Record<string, string | string[] | undefined> = { "x-hub-client-address": "10.0.0.1", "x-forwarded-for": "10.0.0.2" };
    expect(checkRequest({ method: "GET", url: "/cracha/x", headers, socket: { remoteAddress: "::ffff:127.0.0.1" } })).toBeNull();
    expect(headers["x-hub-client-address"]).toBe("::ffff:127.0.0.1");
    expect(headers["x-forwarded-for"]).toBe("10.0.0.2");
  });

  it.each(["/", "/manager/v1/data/org-1?limit=10", "/assets/a%20b", "/perfil?callbackUrl=%ZZ", "/caf%C3%A9"])("passes %s", (url) => {
    expect(get(url)).toBeNull();
  });

  it("refuses a server-action call whose Origin is another host with 403", () => {
    expect(post("/gestao", { "next-action": "abc", origin: "http://evil.example", host: "localhost:3000" })?.status).toBe(403);
    expect(post("/gestao", { "next-action": "abc", origin: "null", host: "localhost:3000" })?.status).toBe(403);
    expect(post("/gestao", { "next-action": "abc", origin: "http://hub.example", host: "internal:3000", "x-forwarded-host": "evil.example" })?.status).toBe(403);
  });

  it("passes a same-origin server-action call, also behind a proxy, and one without Origin", () => {
    expect(post("/gestao", { "next-action": "abc", origin: "http://localhost:3000", host: "localhost:3000" })).toBeNull();
    expect(post("/gestao", { "next-action": "abc", origin: "https://hub.example", host: "internal:3000", "x-forwarded-host": "hub.example" })).toBeNull();
    expect(post("/gestao", { "next-action": "abc", host: "localhost:3000" })).toBeNull();
    // Not a server action: the Origin rule of route handlers is theirs (lib/server/http/same-origin.ts).
    expect(post("/entrar", { origin: "http://evil.example", host: "localhost:3000" })).toBeNull();
  });

  it("refuses a form post to a page from another origin (Next takes it for a server action) with 403, not a route handler's", () => {
    const routes = routeHandlerMatcher({ "/entrar/route": "/entrar" });
    const form = (url: string, type: string, origin: string) => checkRequest({ method: "POST", url, headers: { "content-type": type, origin, host: "localhost:3000" } }, routes);
    expect(form("/gestao/x/disciplinas", "multipart/form-data; boundary=abc", "http://evil.example")?.status).toBe(403);
    expect(form("/gestao", "application/x-www-form-urlencoded", "garbage")?.status).toBe(403);
    expect(form("/gestao", "application/x-www-form-urlencoded", "http://localhost:3000")).toBeNull();
    expect(form("/entrar", "application/x-www-form-urlencoded", "http://evil.example")).toBeNull();
    expect(form("/gestao", "application/json", "http://evil.example")).toBeNull();
  });

  it("refuses a router state header Next cannot parse with 400, and passes a valid one", () => {
    expect(get("/gestao", { rsc: "1", "next-router-state-tree": "%" })?.status).toBe(400);
    expect(get("/gestao", { rsc: "1", "next-router-state-tree": encodeURIComponent('["",{"x":1}]') })?.status).toBe(400);
    expect(get("/gestao", { rsc: "1", "next-router-state-tree": encodeURIComponent('["",{"children":["__PAGE__",{}]},null,null]') })).toBeNull();
  });

  it("refuses a URL over 6 KiB with 414, and passes one just under", () => {
    expect(get(`/gestao?q=${"y".repeat(MAX_URL_BYTES)}`)?.status).toBe(414);
    expect(get(`/gestao?q=${"y".repeat(MAX_URL_BYTES - 20)}`)).toBeNull();
  });

  it.each(["multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; charset=utf-8", `multipart/form-data; boundary=${"x".repeat(71)}`, 'multipart/form-data; boundary="a b "'])(
    "refuses a multipart POST with Content-Type %j with 400",
    (type) => {
      expect(post("/gestao", { "content-type": type })?.status).toBe(400);
    },
  );

  it.each(["multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW", 'multipart/form-data; boundary="a b"', "application/x-www-form-urlencoded", "text/plain;charset=UTF-8"])(
    "passes a POST with Content-Type %j",
    (type) => {
      expect(post("/gestao", { "content-type": type })).toBeNull();
    },
  );
});

describe("sendRejection", () => {
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const rejection = checkRequest(req);
      if (rejection) sendRejection(req, res, rejection);
      else res.end("next");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  function send(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type?: string; length?: string; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ port, host: "127.0.0.1", method, path, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], length: res.headers["content-length"], body }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("answers JSON with a message, and HEAD the same without a body", async () => {
    const got = await send("GET", "/launch/%ZZ");
    expect(got.status).toBe(400);
    expect(got.type).toBe("application/json; charset=utf-8");
    expect(Object.keys(JSON.parse(got.body))).toEqual(["message"]);
    const head = await send("HEAD", "/launch/%ZZ");
    expect(head).toEqual({ status: 400, type: got.type, length: String(Buffer.byteLength(got.body)), body: "" });
    // fetch() and API clients: */* or JSON.
    expect((await send("GET", "/launch/%ZZ", { accept: "*/*" })).type).toBe("application/json; charset=utf-8");
    expect((await send("GET", "/launch/%ZZ", { accept: "application/json" })).type).toBe("application/json; charset=utf-8");
  });

  it("answers a person's browser with a page in Portuguese that links to the hub at its base URL", async () => {
    const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
    const got = await send("GET", "/launch/%ZZ", browser);
    expect(got.status).toBe(400);
    expect(got.type).toBe("text/html; charset=utf-8");
    expect(got.body).toMatch(/^<!doctype html><html lang="pt-BR">.*<title>Pedido inválido<\/title>.*<main>.*<h1>Pedido inválido<\/h1>/s);
    expect(got.body).toContain("O caminho da URL tem uma codificação (%) inválida.");
    expect(got.body).toContain(`href="${baseUrlFrom(process.env)}/"`);
    // A form posted to a page from another address (a cross-origin server action, as Next sees it).
    const form = await send("POST", "/gestao", { "sec-fetch-mode": "navigate", origin: "http://127.0.0.1:9", "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(403);
    expect(form.body).toContain("<h1>Formulário enviado de outro endereço</h1>");
    expect(form.body).toContain(`href="${baseUrlFrom(process.env)}/login"`);
    const head = await send("HEAD", "/launch/%ZZ", browser);
    expect(head).toEqual({ status: 400, type: got.type, length: String(Buffer.byteLength(got.body)), body: "" });
  });
});

describe("multipart bodies of server actions", () => {
  const isRouteHandler = routeHandlerMatcher({
    "/(portal)/launch/[placementId]/route": "/launch/[placementId]",
    "/api/auth/[...nextauth]/route": "/api/auth/[...nextauth]",
    "/entrar/route": "/entrar",
    "/gestao/[institutionId]/page": "/gestao/[institutionId]",
  });
  const multipart = { "content-type": "multipart/form-data; boundary=abc" };

  it("goes where Next goes: a static page wins over a dynamic route handler beside it (a cross-origin form post to it is refused, not a 500)", () => {
    const matcher = routeHandlerMatcher({ "/cracha/[token]/route": "/cracha/[token]", "/cracha/recusado/page": "/cracha/recusado", "/page": "/", "/docs/[[...slug]]/page": "/docs/[[...slug]]" });
    expect(matcher("/cracha/abc")).toBe(true);
    expect(matcher("/cracha/recusado")).toBe(false);
    expect(matcher("/cracha/recusado/")).toBe(false);
    expect(matcher("/")).toBe(false);
    expect(matcher("/docs")).toBe(false);
    const form = checkRequest({ method: "POST", url: "/cracha/recusado?tipo=x", headers: { "content-type": "multipart/form-data; boundary=abc", origin: "garbage", host: "localhost:3000" } }, matcher);
    expect(form?.status).toBe(403);
  });

  it("applies to multipart POSTs to pages, not to route handlers", () => {
    expect(isPageMultipartPost({ method: "POST", url: "/gestao/i-1?x=1", headers: multipart }, isRouteHandler)).toBe(true);
    expect(isPageMultipartPost({ method: "POST", url: "/nao-existe", headers: multipart }, isRouteHandler)).toBe(true);
    for (const url of ["/entrar", "/entrar/", "/launch/p-1", "/api/auth/callback/credentials?x"]) {
      expect(isPageMultipartPost({ method: "POST", url, headers: multipart }, isRouteHandler), url).toBe(false);
    }
    expect(isPageMultipartPost({ method: "POST", url: "/gestao/i-1", headers: { "content-type": "text/plain" } }, isRouteHandler)).toBe(false);
    expect(isPageMultipartPost({ method: "GET", url: "/gestao/i-1", headers: multipart }, isRouteHandler)).toBe(false);
  });

  function incoming(body: string): IncomingMessage {
    const stream = Readable.from([Buffer.from(body)]) as unknown as IncomingMessage;
    Object.assign(stream, { method: "POST", url: "/gestao", headers: multipart, rawHeaders: [], httpVersion: "1.1", httpVersionMajor: 1, httpVersionMinor: 1, socket: null });
    return stream;
  }

  it("refuses a body the FormData parser cannot read with 400, and one over the limit with 413", async () => {
    await expect(checkMultipartBody(incoming("garbage"))).resolves.toEqual({ rejection: { status: 400, message: expect.any(String) } });
    await expect(checkMultipartBody(incoming('--abc\r\nContent-Disposition: form-data; name="x"\r\n\r\nval'))).resolves.toMatchObject({ rejection: { status: 400 } });
    await expect(checkMultipartBody(incoming("x".repeat(100)), 10)).resolves.toMatchObject({ rejection: { status: 413 } });
  });

  it("hands on a request that replays a valid body", async () => {
    const body = '--abc\r\nContent-Disposition: form-data; name="x"\r\n\r\nvalor\r\n--abc--\r\n';
    const checked = await checkMultipartBody(incoming(body));
    if (!("request" in checked)) throw new Error("refused a valid body");
    expect(checked.request.url).toBe("/gestao");
    expect(checked.request.headers).toEqual(multipart);
    let replayed = "";
    for await (const chunk of checked.request) replayed += String(chunk);
    expect(replayed).toBe(body);
  });
});

describe("answerClientError", () => {
  it("answers what Node's parser refuses with a 4xx the client can read, even while the client is still sending", async () => {
    const server = createServer((_req, res) => res.end("ok"));
    server.on("clientError", answerClientError);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const { connect } = await import("node:net");
      const socket = connect(port, "127.0.0.1");
      let received = "";
      let reset = false;
      socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
      socket.on("error", () => (reset = true));
      // Raw non-ASCII bytes in the request line, then a 2 MB body the server never wants.
      socket.write(Buffer.concat([Buffer.from("PUT /sair?x="), Buffer.from([0xc3, 0xa7]), Buffer.from(" HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n")]));
      // The body goes on after the answer has arrived: Node's parser reports the error again
      // for each chunk, and the connection must still not be reset.
      await new Promise((resolve) => socket.once("data", resolve));
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      for (let sent = 0; sent < 2_000_000 && socket.writable; sent += chunk.length) {
        if (!socket.write(chunk)) await new Promise((resolve) => (socket.once("drain", resolve), socket.once("close", resolve)));
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (socket.writable) socket.end();
      await new Promise((resolve) => socket.once("close", resolve));
      expect(reset).toBe(false);
      expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(received).toContain("Content-Length: 0\r\n");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("answers once: the parser's later reports of the same error (one per chunk still arriving) leave the connection draining", () => {
    let destroyed = 0;
    const written: string[] = [];
    const socket = {
      writable: true,
      on: () => socket,
      resume: () => socket,
      end(data: string) {
        written.push(data);
        socket.writable = false;
      },
      destroy: () => void destroyed++,
    };
    const error = Object.assign(new Error("Parse Error: Invalid URL"), { code: "HPE_INVALID_URL" });
    for (let chunk = 0; chunk < 3; chunk++) answerClientError(error, socket as unknown as import("node:stream").Duplex);
    expect(written).toHaveLength(1);
    expect(destroyed).toBe(0);
  });
});
