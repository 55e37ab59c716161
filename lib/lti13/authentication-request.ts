/**
 * The tool's authentication request to the platform (Security Framework 1.0 §5.1.1.2, OIDC Core
 * §3.1.2.1 with the LTI profile): checked one rule per function, in order; the first failure
 * decides. Pure: the registration and the message hint are looked up by the caller.
 */
export interface TAuthenticationRequest {
  scope?: string;
  response_type?: string;
  response_mode?: string;
  prompt?: string;
  client_id?: string;
  redirect_uri?: string;
  login_hint?: string;
  lti_message_hint?: string;
  state?: string;
  nonce?: string;
}

export const AUTHENTICATION_PARAMS = [
  "scope",
  "response_type",
  "response_mode",
  "prompt",
  "client_id",
  "redirect_uri",
  "login_hint",
  "lti_message_hint",
  "state",
  "nonce",
] as const;

/** What the request is checked against. */
export interface TAuthenticationFacts {
  registration: { clientId: string; redirectUris: readonly string[] } | null;
}

export type TAuthenticationRule =
  | "clientIdKnown"
  | "redirectUriRegistered"
  | "scopeIsOpenid"
  | "responseTypeIsIdToken"
  | "responseModeIsFormPost"
  | "promptIsNone"
  | "nonceNotEmpty"
  | "loginHintNotEmpty"
  | "messageHintNotEmpty";

type TRule = [TAuthenticationRule, (request: TAuthenticationRequest, facts: TAuthenticationFacts) => boolean];

const present = (value: string | undefined) => typeof value === "string" && value.length > 0;

/**
 * Order matters: until the client and its redirect URI are known nothing may be sent to the
 * redirect URI (OIDC Core §3.1.2.6), so those two come first and their failures are shown by the
 * hub; later failures could go back to the tool, but the hub shows them too (nothing leaves it).
 */
export const AUTHENTICATION_RULES: readonly TRule[] = [
  ["clientIdKnown", (r, f) => present(r.client_id) && f.registration?.clientId === r.client_id],
  // Exact string match (Security Framework §5.1.1.2: "MUST match one of the registered redirect URIs").
  ["redirectUriRegistered", (r, f) => present(r.redirect_uri) && (f.registration?.redirectUris ?? []).includes(r.redirect_uri!)],
  ["scopeIsOpenid", (r) => (r.scope ?? "").split(" ").includes("openid")],
  ["responseTypeIsIdToken", (r) => r.response_type === "id_token"],
  ["responseModeIsFormPost", (r) => r.response_mode === "form_post"],
  // The user is already signed in at the hub; there is no interactive step to offer.
  ["promptIsNone", (r) => r.prompt === undefined || r.prompt === "none"],
  ["nonceNotEmpty", (r) => present(r.nonce) && r.nonce!.length <= 255],
  ["loginHintNotEmpty", (r) => present(r.login_hint)],
  ["messageHintNotEmpty", (r) => present(r.lti_message_hint)],
];

export type TAuthenticationCheck = { ok: true } | { ok: false; rule: TAuthenticationRule };

export function checkAuthenticationRequest(request: TAuthenticationRequest, facts: TAuthenticationFacts): TAuthenticationCheck {
  for (const [rule, holds] of AUTHENTICATION_RULES) if (!holds(request, facts)) return { ok: false, rule };
  return { ok: true };
}

/** The request's parameters from a query string or form body; a repeated parameter is refused. */
export function parseAuthenticationRequest(params: URLSearchParams): TAuthenticationRequest | null {
  const out: TAuthenticationRequest = {};
  for (const name of AUTHENTICATION_PARAMS) {
    const values = params.getAll(name);
    if (values.length > 1) return null;
    if (values.length === 1) out[name] = values[0];
  }
  return out;
}
