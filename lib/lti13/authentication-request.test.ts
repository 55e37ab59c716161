import { describe, expect, it } from "vitest";
import { checkAuthenticationRequest, parseAuthenticationRequest, type TAuthenticationRequest } from "./authentication-request";
import { openMessageHint, sealMessageHint } from "./message-hint";

const facts = { registration: { clientId: "cid", redirectUris: ["https://tool.example.com/lti/launch"] } };
const good: TAuthenticationRequest = {
  scope: "openid",
  response_type: "id_token",
  response_mode: "form_post",
  prompt: "none",
  client_id: "cid",
  redirect_uri: "https://tool.example.com/lti/launch",
  login_hint: "u1",
  lti_message_hint: "h",
  state: "s",
  nonce: "n",
};

describe("checkAuthenticationRequest", () => {
  it("accepts a request of the LTI profile of OIDC", () => {
    expect(checkAuthenticationRequest(good, facts)).toEqual({ ok: true });
  });
  it.each([
    ["clientIdKnown", { client_id: "other" }],
    ["redirectUriRegistered", { redirect_uri: "https://tool.example.com/lti/launch?x=1" }],
    ["scopeIsOpenid", { scope: "profile" }],
    ["responseTypeIsIdToken", { response_type: "code" }],
    ["responseModeIsFormPost", { response_mode: "query" }],
    ["promptIsNone", { prompt: "login" }],
    ["nonceNotEmpty", { nonce: "" }],
    ["loginHintNotEmpty", { login_hint: undefined }],
    ["messageHintNotEmpty", { lti_message_hint: undefined }],
  ] as const)("refuses by %s", (rule, change) => {
    expect(checkAuthenticationRequest({ ...good, ...change }, facts)).toEqual({ ok: false, rule });
  });
  it("an unknown client fails first, before anything is checked against its redirect URI", () => {
    expect(checkAuthenticationRequest({ ...good, scope: "x" }, { registration: null })).toEqual({ ok: false, rule: "clientIdKnown" });
  });
  it("refuses a repeated parameter", () => {
    expect(parseAuthenticationRequest(new URLSearchParams("nonce=a&nonce=b"))).toBeNull();
    expect(parseAuthenticationRequest(new URLSearchParams("nonce=a&x=1"))).toEqual({ nonce: "a" });
  });
});

describe("message hint", () => {
  const key = Buffer.alloc(32, 7);
  const hint = { t: "p1", p: "profile", c: "cid", m: "LtiResourceLinkRequest" as const, e: 1000 };
  it("opens what it sealed until it expires", () => {
    const sealed = sealMessageHint(hint, key);
    expect(openMessageHint(sealed, key, 999)).toEqual(hint);
    expect(openMessageHint(sealed, key, 1000)).toBeNull();
  });
  it("refuses a changed hint or another key", () => {
    const sealed = sealMessageHint(hint, key);
    const [body, mac] = sealed.split(".");
    const forged = Buffer.from(JSON.stringify({ ...hint, t: "p2" })).toString("base64url");
    expect(openMessageHint(`${forged}.${mac}`, key, 0)).toBeNull();
    expect(openMessageHint(sealed, Buffer.alloc(32, 8), 0)).toBeNull();
    expect(openMessageHint(`${body}`, key, 0)).toBeNull();
  });
});
