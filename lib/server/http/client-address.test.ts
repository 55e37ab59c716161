// The client's address behind trusted proxies and without them (client-address.mjs), and through
// a real node:http server as the request guard stamps it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddressOf, stampClientAddress, trustedProxies } from "./client-address.mjs";

const request = (peer: string, forwardedFor?: string) => ({
  headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  socket: { remoteAddress: peer },
});

describe("clientAddressOf", () => {
  it("is the peer's address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    const none = trustedProxies(undefined);
    expect(clientAddressOf(request("198.51.100.7", "203.0.113.1"), none)).toBe("198.51.100.7");
    expect(clientAddressOf(request("::ffff:127.0.0.1", "10.20.0.5"), trustedProxies(" , "))).toBe("::ffff:127.0.0.1");
  });

  it("reads X-Forwarded-For from the right, past every trusted proxy, to the first untrusted address", () => {
    const trust = trustedProxies("10.0.0.0/8, 192.0.2.1");
    // client → 10.1.1.1 (trusted) → 192.0.2.1 (trusted, the peer)
    expect(clientAddressOf(request("192.0.2.1", "203.0.113.9, 10.1.1.1"), trust)).toBe("203.0.113.9");
    // A client that prepends its own claim gets the address the first trusted proxy saw, not the claim.
    expect(clientAddressOf(request("192.0.2.1", "10.9.9.9, 203.0.113.9, 10.1.1.1"), trust)).toBe("203.0.113.9");
    // Every hop trusted: the furthest one.
    expect(clientAddressOf(request("192.0.2.1", "10.3.3.3"), trust)).toBe("10.3.3.3");
  });

  it("ignores X-Forwarded-For from a peer it does not trust", () => {
    expect(clientAddressOf(request("198.51.100.7", "203.0.113.9"), trustedProxies("10.0.0.0/8"))).toBe("198.51.100.7");
  });

  it("matches an IPv4-mapped IPv6 peer against IPv4 ranges, and takes loopback, IPv6 ranges and single addresses", () => {
    expect(clientAddressOf(request("::ffff:127.0.0.1", "203.0.113.9"), trustedProxies("loopback"))).toBe("203.0.113.9");
    expect(clientAddressOf(request("2001:db8::5", "203.0.113.9"), trustedProxies("2001:db8::/32"))).toBe("203.0.113.9");
    expect(clientAddressOf(request("192.0.2.1", "203.0.113.9"), trustedProxies("192.0.2.1"))).toBe("203.0.113.9");
  });

  it("is empty when the connection has no address (it was destroyed)", () => {
    expect(clientAddressOf({ headers: {}, socket: {} }, trustedProxies("loopback"))).toBe("");
  });
});

describe("trustedProxies", () => {
  it.each(["10.0.0.0/33", "proxy.example", "10.0.0.1,nonsense", "::1/129"])("refuses %j, naming the entry", (setting) => {
    expect(() => trustedProxies(setting)).toThrow(/HUB_TRUSTED_PROXIES: ".+" is not an IP address/);
  });
});

describe("stampClientAddress through node:http", () => {
  let server: http.Server;
  let port: number;
  let trust = trustedProxies(undefined);
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      stampClientAddress(req, trust);
      res.end(String(req.headers[CLIENT_ADDRESS_HEADER]));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ask = async (headers: Record<string, string>) => (await fetch(`http://127.0.0.1:${port}/`, { headers })).text();

  it("overwrites a client's own X-Hub-Client-Address, and takes X-Forwarded-For only from a trusted proxy", async () => {
    trust = trustedProxies(undefined);
    expect(await ask({ [CLIENT_ADDRESS_HEADER]: "203.0.113.50", "x-forwarded-for": "203.0.113.9" })).toBe("127.0.0.1");
    trust = trustedProxies("loopback");
    expect(await ask({ [CLIENT_ADDRESS_HEADER]: "203.0.113.50", "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
    expect(await ask({})).toBe("127.0.0.1");
  });
});
