// The tool's JWKS is fetched through the SSRF guard: checked at every fetch and connected only to
// the checked addresses. A local server stands in for the tool on 127.0.0.2; the lookup the test
// passes answers that address for "localhost", which the system resolves to 127.0.0.1 or ::1,
// where nothing listens: a request that reaches the server went to the pinned address.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import type { TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";
import { toolKeys } from "./tool-keys";

let server: http.Server;
let port = 0;
const hosts: string[] = [];
let token = "";

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  token = await new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer("tool").setExpirationTime("5m").sign(privateKey);
  server = http.createServer((req, res) => {
    hosts.push(req.headers.host ?? "");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  delete process.env.DEMO_TOOL;
  resetEnvCache();
});

afterEach(() => {
  hosts.length = 0;
});

const demoTool = (value: "0" | "1") => {
  process.env.DEMO_TOOL = value;
  resetEnvCache();
};
const to = (address: string): TLookupAll => async () => [{ address, family: 4 }];

describe("toolKeys with a JWKS URL", () => {
  it("fetches the keys from the checked address, not from a second DNS answer", async () => {
    demoTool("1"); // the operator allows private addresses: the local server may be reached
    const keys = await toolKeys({ jwksUrl: `http://localhost:${port}/jwks`, publicJwk: null }, { lookup: to("127.0.0.2") });
    await expect(jwtVerify(token, keys)).resolves.toMatchObject({ payload: { iss: "tool" } });
    expect(hosts).toEqual([`localhost:${port}`]);
  });

  it("refuses a JWKS URL that resolves to a private address", async () => {
    demoTool("0");
    await expect(toolKeys({ jwksUrl: `http://localhost:${port}/jwks`, publicJwk: null }, { lookup: to("127.0.0.2") })).rejects.toThrow(/não é público/);
    expect(hosts).toEqual([]);
  });

  it("checks again at the fetch: a name that answers a public address, then a private one, is not fetched", async () => {
    demoTool("0");
    let calls = 0;
    const rebinding: TLookupAll = async () => [{ address: calls++ === 0 ? "93.184.216.34" : "127.0.0.2", family: 4 }];
    const keys = await toolKeys({ jwksUrl: `http://localhost:${port}/jwks`, publicJwk: null }, { lookup: rebinding });
    await expect(jwtVerify(token, keys)).rejects.toThrow();
    expect(calls).toBe(2);
    expect(hosts).toEqual([]);
  });
});
