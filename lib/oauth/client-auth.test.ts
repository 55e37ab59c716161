import { describe, expect, it } from "vitest";
import { OAuthError } from "./errors";
import { parseBasicCredentials, readClientCredentials } from "./client-auth";

/** How RFC 6749 §2.3.1 clients build the header: form-urlencode each part, then base64. */
function basic(id: string, secret: string, scheme = "Basic"): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return `${scheme} ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString("base64")}`;
}

function expectError(result: unknown, code: string): void {
  expect(result).toBeInstanceOf(OAuthError);
  expect((result as OAuthError).code).toBe(code);
}

describe("readClientCredentials — HTTP Basic", () => {
  it("reads id and secret", () => {
    expect(readClientCredentials({ authorizationHeader: basic("app-1", "s3cret"), body: {} })).toEqual({
      clientId: "app-1",
      clientSecret: "s3cret",
      method: "client_secret_basic",
    });
  });

  it("decodes a url-encoded ':' in the secret (RFC 6749 §2.3.1)", () => {
    const header = `Basic ${Buffer.from("app-1:pa%3Ass:word").toString("base64")}`;
    expect(readClientCredentials({ authorizationHeader: header, body: {} })).toMatchObject({
      clientId: "app-1",
      clientSecret: "pa:ss:word",
    });
    expect(parseBasicCredentials(basic("my app", "a:b+c é"))).toEqual({ clientId: "my app", clientSecret: "a:b+c é" });
  });

  it("decodes '+' as a space", () => {
    const header = `Basic ${Buffer.from("my+app:x+y").toString("base64")}`;
    expect(parseBasicCredentials(header)).toEqual({ clientId: "my app", clientSecret: "x y" });
  });

  it("accepts the scheme in any case", () => {
    expect(readClientCredentials({ authorizationHeader: basic("a", "b", "bAsIc"), body: {} })).toMatchObject({ clientId: "a" });
  });

  it.each([
    ["other scheme", "Bearer abc"],
    ["no credentials", "Basic"],
    ["not base64", "Basic !!!"],
    ["no colon", `Basic ${Buffer.from("justid").toString("base64")}`],
    ["bad percent escape", `Basic ${Buffer.from("app:%zz").toString("base64")}`],
    ["empty secret", `Basic ${Buffer.from("app:").toString("base64")}`],
    ["empty id", `Basic ${Buffer.from(":secret").toString("base64")}`],
  ])("%s → invalid_client", (_label, header) => {
    const result = readClientCredentials({ authorizationHeader: header, body: {} });
    expectError(result, "invalid_client");
    expect((result as OAuthError).status).toBe(401);
  });

  it("Basic plus client_secret in the body → invalid_request", () => {
    expectError(
      readClientCredentials({ authorizationHeader: basic("a", "b"), body: { client_id: "a", client_secret: "b" } }),
      "invalid_request",
    );
  });

  it("Basic plus a body client_id naming another client → invalid_request", () => {
    expectError(readClientCredentials({ authorizationHeader: basic("a", "b"), body: { client_id: "z" } }), "invalid_request");
  });

  it("Basic plus the same client_id in the body is fine", () => {
    expect(readClientCredentials({ authorizationHeader: basic("a", "b"), body: { client_id: "a" } })).toMatchObject({
      method: "client_secret_basic",
    });
  });
});

describe("readClientCredentials — body", () => {
  it("reads client_id and client_secret", () => {
    expect(readClientCredentials({ authorizationHeader: null, body: { client_id: "a", client_secret: "b" } })).toEqual({
      clientId: "a",
      clientSecret: "b",
      method: "client_secret_post",
    });
  });

  it("an empty Authorization header is ignored", () => {
    expect(readClientCredentials({ authorizationHeader: "  ", body: { client_id: "a", client_secret: "b" } })).toMatchObject({
      method: "client_secret_post",
    });
  });

  it("no credentials → invalid_client", () => {
    expectError(readClientCredentials({ body: {} }), "invalid_client");
  });

  it("client_id without secret → invalid_client", () => {
    expectError(readClientCredentials({ body: { client_id: "a", client_secret: "" } }), "invalid_client");
  });

  it("non-string fields → invalid_request", () => {
    expectError(readClientCredentials({ body: { client_id: 12, client_secret: "b" } }), "invalid_request");
    expectError(readClientCredentials({ body: { client_id: "a", client_secret: ["b"] } }), "invalid_request");
  });
});
