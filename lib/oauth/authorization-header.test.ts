import { describe, expect, it } from "vitest";
import { bearerChallenge, readBearerToken } from "./authorization-header";
import { OAuthError } from "./errors";

const JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln-_";

describe("readBearerToken", () => {
  it.each([
    [JWT, JWT],
    [`Bearer ${JWT}`, JWT],
    [`bearer ${JWT}`, JWT],
    [`BEARER   ${JWT}  `, JWT],
    ["abc+/==", "abc+/=="],
  ])("accepts %s", (header, token) => {
    expect(readBearerToken(header)).toBe(token);
  });

  it.each([
    ["missing", undefined],
    ["null", null],
    ["empty", ""],
    ["blank", "   "],
    ["scheme only", "Bearer"],
    ["scheme and blank", "Bearer   "],
    ["other scheme", `Basic ${JWT}`],
    ["three parts", `Bearer ${JWT} extra`],
    ["bad characters", "Bearer a,b"],
    ["bad bare token", "tok\"en"],
  ])("rejects %s with invalid_token (401)", (_label, header) => {
    const result = readBearerToken(header);
    expect(result).toBeInstanceOf(OAuthError);
    expect((result as OAuthError).code).toBe("invalid_token");
    expect((result as OAuthError).status).toBe(401);
  });
});

describe("bearerChallenge", () => {
  it("formats an RFC 6750 §3 challenge", () => {
    expect(bearerChallenge(new OAuthError("invalid_token", "The access token expired"))).toBe(
      'Bearer realm="hub", error="invalid_token", error_description="The access token expired"',
    );
  });
});
