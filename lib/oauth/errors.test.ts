import { describe, expect, it } from "vitest";
import { isOAuthError, OAUTH_ERROR_STATUS, OAuthError, sanitizeErrorDescription } from "./errors";

describe("OAuthError", () => {
  it.each([
    ["invalid_client", 401],
    ["invalid_token", 401],
    ["insufficient_scope", 403],
    ["invalid_request", 400],
    ["invalid_grant", 400],
    ["unauthorized_client", 400],
    ["unsupported_grant_type", 400],
    ["unsupported_response_type", 400],
    ["invalid_scope", 400],
    ["access_denied", 400],
    ["server_error", 400],
  ] as const)("%s has status %i", (code, status) => {
    expect(OAUTH_ERROR_STATUS[code]).toBe(status);
    expect(new OAuthError(code, "x").status).toBe(status);
  });

  it("accepts an explicit status override", () => {
    expect(new OAuthError("invalid_client", "x", 400).status).toBe(400);
  });

  it("serialises to the RFC 6749 §5.2 body", () => {
    const error = new OAuthError("invalid_grant", "Code expired");
    expect(error.toJSON()).toEqual({ error: "invalid_grant", error_description: "Code expired" });
    expect(JSON.parse(JSON.stringify(error))).toEqual({ error: "invalid_grant", error_description: "Code expired" });
    expect(error).toBeInstanceOf(Error);
    expect(isOAuthError(error)).toBe(true);
    expect(isOAuthError(new Error("x"))).toBe(false);
  });

  it("replaces characters error_description may not carry", () => {
    expect(sanitizeErrorDescription('bad "scope" \\ é\n')).toBe("bad ?scope? ? ??");
    expect(new OAuthError("invalid_scope", "Unknown scope: ü").description).toBe("Unknown scope: ?");
  });

  it("captures no stack trace (a refusal is an answer, not a fault) and leaves other errors theirs", () => {
    const limit = Error.stackTraceLimit;
    const error = new OAuthError("invalid_token", "The access token is invalid");
    expect(error.stack).toBe("OAuthError: invalid_token: The access token is invalid");
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("fault").stack).toMatch(/\n\s+at /);
  });
});
