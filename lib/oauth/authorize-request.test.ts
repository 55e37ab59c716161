import { describe, expect, it } from "vitest";
import {
  AUTHORIZE_RULES,
  parseResponseType,
  validateAuthorizeRequest,
  type AuthorizeClient,
  type AuthorizeParams,
  type AuthorizeValidation,
} from "./authorize-request";

const REDIRECT = "https://app.example/callback?tenant=1";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

const client: AuthorizeClient = {
  clientId: "app-1",
  redirectUris: [REDIRECT, "https://app.example/other"],
  defaultResponseType: "code",
};

const valid: AuthorizeParams = {
  client_id: "app-1",
  redirect_uri: REDIRECT,
  response_type: "code",
  scope: "user.info",
  state: "xyz",
};

function run(overrides: AuthorizeParams, lookedUp: AuthorizeClient | null = client): AuthorizeValidation {
  return validateAuthorizeRequest({ ...valid, ...overrides }, lookedUp);
}

function expectErrorPage(result: AuthorizeValidation, rule: string, code: string): void {
  expect(result.kind).toBe("error_page");
  if (result.kind !== "error_page") return;
  expect(result.rule).toBe(rule);
  expect(result.error.code).toBe(code);
}

function expectRedirectError(result: AuthorizeValidation, rule: string, code: string) {
  expect(result.kind).toBe("redirect_error");
  if (result.kind !== "redirect_error") throw new Error("not a redirect_error");
  expect(result.rule).toBe(rule);
  expect(result.error.code).toBe(code);
  expect(result.redirectUri).toBe(REDIRECT);
  return result;
}

function request(result: AuthorizeValidation) {
  if (result.kind !== "ok") throw new Error(`expected ok, got ${result.kind}: ${JSON.stringify(result)}`);
  return result.request;
}

describe("AUTHORIZE_RULES", () => {
  it("runs in the documented order, error-page rules first", () => {
    expect(AUTHORIZE_RULES.map((rule) => `${rule.name}:${rule.onFailure}`)).toEqual([
      "clientIdPresent:error_page",
      "clientKnown:error_page",
      "redirectUriPresent:error_page",
      "redirectUriRegistered:error_page",
      "responseTypeSupported:redirect_error",
      "scopePresentAndKnown:redirect_error",
      "pkceMethodValid:redirect_error",
      "responseModeValid:redirect_error",
      "stateWithinLimit:redirect_error",
      "nonceWithinLimit:redirect_error",
      "nonceRequiredForImplicitOpenId:redirect_error",
      "promptValid:redirect_error",
      "idTokenHintWithinLimit:redirect_error",
    ]);
  });
});

describe("clientIdPresent", () => {
  it("missing client_id → error page, invalid_request", () => {
    expectErrorPage(run({ client_id: undefined }), "clientIdPresent", "invalid_request");
  });
  it("empty client_id counts as missing (RFC 6749 §3.1)", () => {
    expectErrorPage(run({ client_id: "" }), "clientIdPresent", "invalid_request");
  });
});

describe("clientKnown", () => {
  it("unknown client → error page, never a redirect", () => {
    expectErrorPage(run({}, null), "clientKnown", "invalid_client");
  });
  it("a looked-up record for another client_id is not accepted", () => {
    expectErrorPage(run({ client_id: "app-2" }), "clientKnown", "invalid_client");
  });
  it("wins over later errors (bad scope, bad response_type)", () => {
    expectErrorPage(run({ scope: "admin", response_type: "bogus" }, null), "clientKnown", "invalid_client");
  });
});

describe("redirectUriPresent", () => {
  it("missing redirect_uri → error page, invalid_request", () => {
    expectErrorPage(run({ redirect_uri: undefined }), "redirectUriPresent", "invalid_request");
  });
});

describe("redirectUriRegistered", () => {
  it("unregistered redirect_uri → error page, never a redirect", () => {
    const result = run({ redirect_uri: "https://evil.example/callback", scope: "nope" });
    expectErrorPage(result, "redirectUriRegistered", "invalid_request");
    expect(JSON.stringify(result)).not.toContain("evil.example");
  });
  it.each([
    "https://app.example/callback",
    "https://app.example/callback?tenant=1&x=2",
    "https://APP.example/callback?tenant=1",
    "https://app.example/callback?tenant=1/",
    "https://app.example/callback?tenant=1#frag",
  ])("requires an exact string match: %s", (redirectUri) => {
    expectErrorPage(run({ redirect_uri: redirectUri }), "redirectUriRegistered", "invalid_request");
  });
  it("accepts any one of the registered URIs", () => {
    expect(request(run({ redirect_uri: "https://app.example/other" })).redirectUri).toBe("https://app.example/other");
  });
});

describe("responseTypeSupported", () => {
  it("unknown response_type → redirect with unsupported_response_type and state", () => {
    const result = expectRedirectError(run({ response_type: "password" }), "responseTypeSupported", "unsupported_response_type");
    expect(result.state).toBe("xyz");
    expect(result.responseMode).toBe("query");
    const url = new URL(result.location);
    expect(url.searchParams.get("tenant")).toBe("1");
    expect(url.searchParams.get("error")).toBe("unsupported_response_type");
    expect(url.searchParams.get("error_description")).toBeTruthy();
    expect(url.searchParams.get("state")).toBe("xyz");
  });
  it("hybrid code id_token is refused", () => {
    expectRedirectError(run({ response_type: "code id_token" }), "responseTypeSupported", "unsupported_response_type");
  });
  it("repeated words are refused", () => {
    expectRedirectError(run({ response_type: "token access_token" }), "responseTypeSupported", "unsupported_response_type");
  });
  it.each([
    ["code", ["code"]],
    ["access_token", ["access_token"]],
    ["token", ["access_token"]],
    ["id_token", ["id_token"]],
    ["id_token token", ["access_token", "id_token"]],
    ["token id_token", ["access_token", "id_token"]],
  ])("accepts %s", (responseType, expected) => {
    expect(request(run({ response_type: responseType })).responseTypes).toEqual(expected);
    expect(parseResponseType(responseType)).toEqual(expected);
  });
  it("omitted response_type uses the client's default", () => {
    const implicit: AuthorizeClient = { ...client, defaultResponseType: "id_token" };
    const result = request(run({ response_type: undefined }, implicit));
    expect(result.responseTypes).toEqual(["id_token"]);
    expect(result.responseMode).toBe("fragment");
    expect(request(run({ response_type: "" })).responseTypes).toEqual(["code"]);
  });
});

describe("scopePresentAndKnown", () => {
  it("missing scope → redirect with invalid_scope", () => {
    expectRedirectError(run({ scope: undefined }), "scopePresentAndKnown", "invalid_scope");
  });
  it("unknown scope → redirect with invalid_scope", () => {
    const result = expectRedirectError(run({ scope: "user.info admin" }), "scopePresentAndKnown", "invalid_scope");
    expect(result.error.description).toContain("admin");
  });
  it("openid alone grants nothing → invalid_scope", () => {
    expectRedirectError(run({ scope: "openid" }), "scopePresentAndKnown", "invalid_scope");
  });
  it("scope is case-sensitive (RFC 6749 §3.3)", () => {
    expectRedirectError(run({ scope: "User.Info" }), "scopePresentAndKnown", "invalid_scope");
  });
  it("openid is allowed and ignored; duplicates collapse", () => {
    expect(request(run({ scope: "openid user.info  user.info" })).scope).toEqual(["user.info"]);
  });
  it("uses the fragment for errors of token requests", () => {
    const result = expectRedirectError(run({ response_type: "token", scope: "x" }), "scopePresentAndKnown", "invalid_scope");
    expect(result.responseMode).toBe("fragment");
    expect(result.location.startsWith(`${REDIRECT}#error=invalid_scope&`)).toBe(true);
  });
});

describe("pkceMethodValid", () => {
  it("plain method → redirect with invalid_request", () => {
    expectRedirectError(run({ code_challenge: CHALLENGE, code_challenge_method: "plain" }), "pkceMethodValid", "invalid_request");
  });
  it("challenge without method (defaults to plain) → invalid_request", () => {
    expectRedirectError(run({ code_challenge: CHALLENGE }), "pkceMethodValid", "invalid_request");
  });
  it("method without challenge → invalid_request", () => {
    expectRedirectError(run({ code_challenge_method: "S256" }), "pkceMethodValid", "invalid_request");
  });
  it.each([CHALLENGE.slice(1), `${CHALLENGE}A`, `${CHALLENGE.slice(1)}+`])(
    "challenge that is not 43 base64url chars → invalid_request: %s",
    (challenge) => {
      expectRedirectError(run({ code_challenge: challenge, code_challenge_method: "S256" }), "pkceMethodValid", "invalid_request");
    },
  );
  it("S256 with a 43-char challenge is kept", () => {
    const result = request(run({ code_challenge: CHALLENGE, code_challenge_method: "S256" }));
    expect(result.codeChallenge).toBe(CHALLENGE);
    expect(result.codeChallengeMethod).toBe("S256");
  });
});

describe("responseModeValid", () => {
  it("form_post → redirect with invalid_request", () => {
    expectRedirectError(run({ response_mode: "form_post" }), "responseModeValid", "invalid_request");
  });
  it("defaults: query for code, fragment for tokens", () => {
    expect(request(run({ response_type: "code" })).responseMode).toBe("query");
    expect(request(run({ response_type: "token" })).responseMode).toBe("fragment");
    expect(request(run({ response_type: "id_token token" })).responseMode).toBe("fragment");
  });
  it("explicit response_mode is honoured, also query for tokens", () => {
    expect(request(run({ response_type: "token", response_mode: "query" })).responseMode).toBe("query");
    expect(request(run({ response_type: "code", response_mode: "fragment" })).responseMode).toBe("fragment");
  });
  it("an explicit valid mode steers where earlier errors go", () => {
    const result = expectRedirectError(run({ scope: "x", response_type: "token", response_mode: "query" }), "scopePresentAndKnown", "invalid_scope");
    expect(result.responseMode).toBe("query");
  });
});

describe("stateWithinLimit", () => {
  it("state over 2048 chars → invalid_request, not echoed back", () => {
    const result = expectRedirectError(run({ state: "s".repeat(2049) }), "stateWithinLimit", "invalid_request");
    expect(result.state).toBeUndefined();
    expect(result.location).not.toContain("state=");
  });
  it("state of exactly 2048 chars is kept unchanged", () => {
    const state = "é".repeat(2048);
    expect(request(run({ state })).state).toBe(state);
  });
});

describe("nonceWithinLimit", () => {
  it("nonce over 512 chars → invalid_request with state echoed", () => {
    const result = expectRedirectError(run({ nonce: "n".repeat(513) }), "nonceWithinLimit", "invalid_request");
    expect(result.state).toBe("xyz");
  });
  it("nonce of 512 chars is kept", () => {
    expect(request(run({ nonce: "n".repeat(512) })).nonce).toBe("n".repeat(512));
  });
});

describe("validateAuthorizeRequest", () => {
  it("normalizes a full valid request", () => {
    const result = run({
      response_type: "id_token token",
      scope: "openid user.info",
      state: "a b&c=d/é%",
      nonce: "n-1",
      unrelated: "ignored",
    });
    expect(result).toEqual({
      kind: "ok",
      request: {
        clientId: "app-1",
        redirectUri: REDIRECT,
        responseTypes: ["access_token", "id_token"],
        scope: ["user.info"],
        openid: true,
        prompt: new Set(),
        state: "a b&c=d/é%",
        nonce: "n-1",
        responseMode: "fragment",
      },
    });
  });
  it("leaves optional fields out when absent", () => {
    const result = request(run({ state: undefined }));
    expect(Object.keys(result).sort()).toEqual(["clientId", "openid", "prompt", "redirectUri", "responseMode", "responseTypes", "scope"]);
  });
  it("redirected errors carry state byte-identical", () => {
    const state = "a b&c=d/é%";
    const result = expectRedirectError(run({ scope: "x", state }), "scopePresentAndKnown", "invalid_scope");
    expect(new URL(result.location).searchParams.get("state")).toBe(state);
  });
});

describe("nonceRequiredForImplicitOpenId (OIDC Core §3.2.2.1)", () => {
  it.each(["id_token", "id_token token"])("openid + %s without nonce → invalid_request at the redirect URI", (responseType) => {
    const result = run({ response_type: responseType, scope: "openid user.info", nonce: undefined });
    expect(result).toMatchObject({ kind: "redirect_error", rule: "nonceRequiredForImplicitOpenId", error: { code: "invalid_request" } });
  });
  it("without openid the contract keeps nonce optional", () => {
    expect(run({ response_type: "id_token", scope: "user.info", nonce: undefined }).kind).toBe("ok");
  });
  it("the code flow and access_token alone do not need it", () => {
    expect(run({ response_type: "code", scope: "openid user.info", nonce: undefined }).kind).toBe("ok");
    expect(run({ response_type: "access_token", scope: "openid user.info", nonce: undefined }).kind).toBe("ok");
  });
});

describe("promptValid (OIDC Core §3.1.2.1)", () => {
  it("parses the space-separated values", () => {
    expect(request(run({ prompt: "login consent" })).prompt).toEqual(new Set(["login", "consent"]));
    expect(request(run({ prompt: undefined })).prompt).toEqual(new Set());
  });
  it.each(["none login", "bogus", "none select_account"])("refuses %s with invalid_request", (prompt) => {
    expect(run({ prompt })).toMatchObject({ kind: "redirect_error", rule: "promptValid", error: { code: "invalid_request" } });
  });
});

describe("idTokenHintWithinLimit", () => {
  it("carries the hint, refuses an oversized one", () => {
    expect(request(run({ id_token_hint: "a.b.c" })).idTokenHint).toBe("a.b.c");
    expect(run({ id_token_hint: "x".repeat(5000) })).toMatchObject({ kind: "redirect_error", rule: "idTokenHintWithinLimit" });
  });
});
