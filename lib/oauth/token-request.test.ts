import { describe, expect, it } from "vitest";
import { OAuthError } from "./errors";
import { formBodyToRecord, parseTokenRequest } from "./token-request";

function expectError(result: unknown, code: string, descriptionPart?: string): void {
  expect(result).toBeInstanceOf(OAuthError);
  const error = result as OAuthError;
  expect(error.code).toBe(code);
  if (descriptionPart !== undefined) expect(error.description).toContain(descriptionPart);
}

describe("parseTokenRequest", () => {
  it("parses the spec's JSON body", () => {
    expect(
      parseTokenRequest({ grant_type: "authorization_code", code: "c1", client_id: "app", client_secret: "s", extra: 1 }),
    ).toEqual({ grantType: "authorization_code", code: "c1", clientId: "app", clientSecret: "s" });
  });

  it("returns redirect_uri and code_verifier for the caller to check", () => {
    expect(
      parseTokenRequest({ grant_type: "authorization_code", code: "c1", redirect_uri: "https://a/cb", code_verifier: "v" }),
    ).toEqual({ grantType: "authorization_code", code: "c1", redirectUri: "https://a/cb", codeVerifier: "v" });
  });

  it("missing grant_type → invalid_request", () => {
    expectError(parseTokenRequest({ code: "c" }), "invalid_request", "grant_type is required");
    expectError(parseTokenRequest({ grant_type: "", code: "c" }), "invalid_request", "grant_type is required");
  });

  it.each(["refresh_token", "client_credentials", "password", "implicit", "AUTHORIZATION_CODE"])(
    "grant_type %s → unsupported_grant_type, even with other fields missing",
    (grantType) => {
      expectError(parseTokenRequest({ grant_type: grantType }), "unsupported_grant_type");
    },
  );

  it("non-string grant_type → invalid_request", () => {
    expectError(parseTokenRequest({ grant_type: 3 }), "invalid_request", "grant_type must be a string");
  });

  it("missing or empty code → invalid_request", () => {
    expectError(parseTokenRequest({ grant_type: "authorization_code" }), "invalid_request", "code is required");
    expectError(parseTokenRequest({ grant_type: "authorization_code", code: "" }), "invalid_request", "code is required");
  });

  it("wrongly typed or oversized fields → invalid_request", () => {
    expectError(parseTokenRequest({ grant_type: "authorization_code", code: ["a"] }), "invalid_request", "code must be a string");
    expectError(
      parseTokenRequest({ grant_type: "authorization_code", code: "c", redirect_uri: 5 }),
      "invalid_request",
      "redirect_uri",
    );
    expectError(
      parseTokenRequest({ grant_type: "authorization_code", code: "c".repeat(513) }),
      "invalid_request",
      "code is too long",
    );
  });

  it.each([null, "grant_type=authorization_code", [], 42])("a non-object body → invalid_request (%s)", (body) => {
    expectError(parseTokenRequest(body), "invalid_request");
  });

  it("empty optional fields count as omitted", () => {
    expect(parseTokenRequest({ grant_type: "authorization_code", code: "c", redirect_uri: "", code_verifier: "" })).toEqual({
      grantType: "authorization_code",
      code: "c",
    });
  });
});

describe("formBodyToRecord", () => {
  it("turns a form body into a record that parses", () => {
    const record = formBodyToRecord(new URLSearchParams("grant_type=authorization_code&code=a%2Bb&redirect_uri=https%3A%2F%2Fa%2Fcb"));
    expect(record).toEqual({ grant_type: "authorization_code", code: "a+b", redirect_uri: "https://a/cb" });
    expect(parseTokenRequest(record)).toMatchObject({ code: "a+b" });
  });

  it("refuses a repeated parameter (RFC 6749 §3.2)", () => {
    expectError(formBodyToRecord(new URLSearchParams("code=a&code=b")), "invalid_request", "code is repeated");
  });
});
