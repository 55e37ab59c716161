/**
 * Validation of the authorization request (GET /lti/v1/oauth2/authorize).
 *
 * The checks are one ordered list of small named rules. Order matters: until the client and
 * its redirect URI are proven (the first four rules) we must not redirect anywhere, because an
 * attacker-chosen redirect_uri would turn the hub into an open redirector (RFC 6749 §4.1.2.1,
 * §10.15; RFC 9700 §4.11). Those failures render an error page. Every later failure is
 * reported to the (now trusted) redirect URI with `error`, `error_description` and `state`.
 */
import { OAuthError } from "./errors";
import { isValidS256Challenge } from "./pkce";
import { buildRedirect, type ResponseMode } from "./redirect";

export type { ResponseMode } from "./redirect";

export type ResponseTypeValue = "code" | "access_token" | "id_token";

/** OIDC Core §3.1.2.1 `prompt` values. */
export type PromptValue = "none" | "login" | "consent" | "select_account";

export type AuthorizeClient = {
  clientId: string;
  redirectUris: readonly string[];
  defaultResponseType: ResponseTypeValue;
};

export type AuthorizeParams = Readonly<Record<string, string | undefined>>;

export type AuthorizeRequest = {
  clientId: string;
  redirectUri: string;
  /** Canonical order: code, access_token, id_token. */
  responseTypes: readonly ResponseTypeValue[];
  /** Known scopes only, de-duplicated; `openid` is accepted but not carried. */
  scope: readonly string[];
  /** Whether `openid` was in the scope: an OpenID Connect request, with OIDC's extra rules. */
  openid: boolean;
  /** OIDC `prompt`, empty when not sent. `none` never comes with another value. */
  prompt: ReadonlySet<PromptValue>;
  /** OIDC `id_token_hint`: a token we issued, naming the profile the client expects (checked by the caller). */
  idTokenHint?: string;
  state?: string;
  nonce?: string;
  codeChallenge?: string;
  codeChallengeMethod?: "S256";
  responseMode: ResponseMode;
};

export const MAX_STATE_LENGTH = 2048;
export const MAX_NONCE_LENGTH = 512;
/** Scopes a client may ask for. */
export const KNOWN_SCOPES: readonly string[] = ["user.info"];
/** OIDC marker scope: allowed, ignored (the hub decides on id tokens by response_type). */
const IGNORED_SCOPES: readonly string[] = ["openid"];

/** The rules' names, from their two groups below. */
export type AuthorizeRuleName = keyof typeof ERROR_PAGE_RULES | keyof typeof REDIRECT_ERROR_RULES;

export type AuthorizeValidation =
  | { kind: "ok"; request: AuthorizeRequest }
  | { kind: "error_page"; rule: AuthorizeRuleName; error: OAuthError }
  | {
      kind: "redirect_error";
      rule: AuthorizeRuleName;
      error: OAuthError;
      redirectUri: string;
      responseMode: ResponseMode;
      state?: string;
      /** Ready-made Location header carrying error, error_description and state. */
      location: string;
    };

/** What earlier rules established; later rules read it. */
export type AuthorizeDraft = {
  clientId?: string;
  redirectUri?: string;
  responseTypes?: readonly ResponseTypeValue[];
  scope?: readonly string[];
  openid?: boolean;
  prompt?: ReadonlySet<PromptValue>;
  idTokenHint?: string;
  codeChallenge?: string;
  codeChallengeMethod?: "S256";
  responseMode?: ResponseMode;
  state?: string;
  nonce?: string;
};

export type AuthorizeRuleContext = { params: AuthorizeParams; client: AuthorizeClient | null; draft: AuthorizeDraft };
export type AuthorizeRuleOutcome = { ok: true; set?: Partial<AuthorizeDraft> } | { ok: false; error: OAuthError };
export type AuthorizeRule = (ctx: AuthorizeRuleContext) => AuthorizeRuleOutcome;

const pass = (set?: Partial<AuthorizeDraft>): AuthorizeRuleOutcome => ({ ok: true, set });
const fail = (code: OAuthError["code"], description: string): AuthorizeRuleOutcome => ({
  ok: false,
  error: new OAuthError(code, description),
});

/** RFC 6749 §3.1: parameters sent without a value MUST be treated as if omitted. */
function param(params: AuthorizeParams, name: string): string | undefined {
  const value = params[name];
  return value === undefined || value === "" ? undefined : value;
}

// ---- Rules whose failure is an error page (no trusted redirect target yet) ----

export const clientIdPresent: AuthorizeRule = ({ params }) =>
  param(params, "client_id") === undefined
    ? fail("invalid_request", "client_id is required")
    : pass();

/** The caller looked the client up by client_id; null (or a mismatched record) means unknown. */
export const clientKnown: AuthorizeRule = ({ params, client }) =>
  client === null || client.clientId !== param(params, "client_id")
    ? fail("invalid_client", "Unknown client_id")
    : pass({ clientId: client.clientId });

/** The spec makes redirect_uri required, so the single-registered-URI shortcut of RFC 6749 §3.1.2.3 is not offered. */
export const redirectUriPresent: AuthorizeRule = ({ params }) =>
  param(params, "redirect_uri") === undefined
    ? fail("invalid_request", "redirect_uri is required")
    : pass();

/** RFC 9700 §4.1.3 / §2.1: exact string comparison, no prefix or pattern matching. */
export const redirectUriRegistered: AuthorizeRule = ({ params, client }) => {
  const redirectUri = param(params, "redirect_uri");
  return redirectUri !== undefined && client !== null && client.redirectUris.includes(redirectUri)
    ? pass({ redirectUri })
    : fail("invalid_request", "redirect_uri is not registered for this client");
};

// ---- Rules whose failure is redirected to the client ----

const RESPONSE_TYPE_WORDS: Readonly<Record<string, ResponseTypeValue>> = {
  code: "code",
  access_token: "access_token",
  token: "access_token", // RFC 6749 §4.2.1 name; the spec calls it access_token
  id_token: "id_token",
};

/** The combinations we issue. Hybrid flows (code + token) are not offered. */
const SUPPORTED_COMBINATIONS: readonly (readonly ResponseTypeValue[])[] = [
  ["code"],
  ["access_token"],
  ["id_token"],
  ["access_token", "id_token"], // OIDC Core §3.2.2.1 "id_token token"
];

const CANONICAL_ORDER: readonly ResponseTypeValue[] = ["code", "access_token", "id_token"];

/**
 * RFC 6749 §3.1.1: response_type is a space-delimited list whose order does not matter.
 * Returns undefined for unknown words, repeats, or unsupported combinations.
 */
export function parseResponseType(value: string): readonly ResponseTypeValue[] | undefined {
  const words = value.split(" ");
  const types = new Set<ResponseTypeValue>();
  for (const word of words) {
    const type = RESPONSE_TYPE_WORDS[word];
    if (type === undefined || types.has(type)) return undefined;
    types.add(type);
  }
  const sorted = CANONICAL_ORDER.filter((type) => types.has(type));
  const supported = SUPPORTED_COMBINATIONS.some(
    (combo) => combo.length === sorted.length && combo.every((type, i) => sorted[i] === type),
  );
  return supported ? sorted : undefined;
}

/** Omitted response_type falls back to the client's registered default (design decision). */
export const responseTypeSupported: AuthorizeRule = ({ params, client }) => {
  const raw = param(params, "response_type");
  if (raw === undefined) {
    return client === null
      ? fail("unsupported_response_type", "response_type is required")
      : pass({ responseTypes: [client.defaultResponseType] });
  }
  const responseTypes = parseResponseType(raw);
  return responseTypes === undefined
    ? fail("unsupported_response_type", "response_type must be code, access_token (token), id_token or id_token token")
    : pass({ responseTypes });
};

/**
 * RFC 6749 §3.3: scope is space-delimited and case-sensitive; the spec makes it required.
 * Unknown scopes fail rather than being silently dropped so the client learns of its mistake.
 * `openid` alone grants nothing, so it counts as no scope.
 */
export const scopePresentAndKnown: AuthorizeRule = ({ params }) => {
  const raw = param(params, "scope");
  const words = (raw ?? "").split(" ").filter((word) => word !== "");
  const unknown = words.find((word) => !KNOWN_SCOPES.includes(word) && !IGNORED_SCOPES.includes(word));
  if (unknown !== undefined) return fail("invalid_scope", `Unknown scope: ${unknown.slice(0, 64)}`);
  const scope = KNOWN_SCOPES.filter((known) => words.includes(known));
  return scope.length === 0 ? fail("invalid_scope", "scope is required (user.info)") : pass({ scope, openid: words.includes("openid") });
};

/**
 * RFC 7636 §4.3: a challenge without a method means `plain`, which we refuse (RFC 9700
 * §2.1.1), as we refuse a method without a challenge.
 */
export const pkceMethodValid: AuthorizeRule = ({ params }) => {
  const challenge = param(params, "code_challenge");
  const method = param(params, "code_challenge_method");
  if (challenge === undefined) {
    return method === undefined ? pass() : fail("invalid_request", "code_challenge_method sent without code_challenge");
  }
  if (method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  if (!isValidS256Challenge(challenge)) {
    return fail("invalid_request", "code_challenge must be 43 base64url characters");
  }
  return pass({ codeChallenge: challenge, codeChallengeMethod: "S256" });
};

/**
 * RFC 6749 §4.1.2 returns codes in the query and §4.2.2 returns tokens in the fragment, so a
 * token never reaches server logs or Referer headers. `response_mode=query` for tokens is
 * honoured for compatibility with older partners (design decision).
 */
export function defaultResponseMode(responseTypes: readonly ResponseTypeValue[]): ResponseMode {
  return responseTypes.length === 1 && responseTypes[0] === "code" ? "query" : "fragment";
}

function isResponseMode(value: string): value is ResponseMode {
  return value === "query" || value === "fragment";
}

export const responseModeValid: AuthorizeRule = ({ params, draft }) => {
  const raw = param(params, "response_mode");
  if (raw === undefined) return pass({ responseMode: defaultResponseMode(draft.responseTypes ?? ["code"]) });
  return isResponseMode(raw)
    ? pass({ responseMode: raw })
    : fail("invalid_request", "response_mode must be query or fragment");
};

/** Bounds what we store and echo back (the Location header must stay a sane size). */
export const stateWithinLimit: AuthorizeRule = ({ params }) => {
  const state = param(params, "state");
  return state !== undefined && state.length > MAX_STATE_LENGTH
    ? fail("invalid_request", `state must be at most ${MAX_STATE_LENGTH} characters`)
    : pass({ state });
};

export const nonceWithinLimit: AuthorizeRule = ({ params }) => {
  const nonce = param(params, "nonce");
  return nonce !== undefined && nonce.length > MAX_NONCE_LENGTH
    ? fail("invalid_request", `nonce must be at most ${MAX_NONCE_LENGTH} characters`)
    : pass({ nonce });
};

/**
 * OIDC Core §3.2.2.1: in the implicit flow `nonce` is REQUIRED, so a replayed id token can be
 * told apart. It applies to OpenID Connect requests (`openid` in the scope) that ask for an id
 * token without a code; plain OAuth requests keep `nonce` optional, as the contract has it.
 */
export const nonceRequiredForImplicitOpenId: AuthorizeRule = ({ draft }) =>
  draft.openid === true && draft.nonce === undefined && draft.responseTypes?.includes("id_token") === true && !draft.responseTypes.includes("code")
    ? fail("invalid_request", "nonce is required when an id_token is requested in the implicit flow with the openid scope")
    : pass();

const PROMPT_VALUES: readonly PromptValue[] = ["none", "login", "consent", "select_account"];

/**
 * OIDC Core §3.1.2.1: `prompt` is a space-delimited list; `none` with any other value is an
 * error. An unknown value is refused rather than ignored, so the client learns of its mistake.
 */
export const promptValid: AuthorizeRule = ({ params }) => {
  const raw = param(params, "prompt");
  const prompt = new Set<PromptValue>();
  for (const word of (raw ?? "").split(" ").filter((w) => w !== "")) {
    const value = PROMPT_VALUES.find((known) => known === word);
    if (value === undefined) return fail("invalid_request", `Unknown prompt value: ${word.slice(0, 32)}`);
    prompt.add(value);
  }
  if (prompt.has("none") && prompt.size > 1) return fail("invalid_request", "prompt=none cannot be combined with other values");
  return pass({ prompt });
};

/** An id token is a few hundred bytes; the bound only keeps the request sane. */
export const MAX_ID_TOKEN_HINT_LENGTH = 4096;

export const idTokenHintWithinLimit: AuthorizeRule = ({ params }) => {
  const hint = param(params, "id_token_hint");
  return hint !== undefined && hint.length > MAX_ID_TOKEN_HINT_LENGTH
    ? fail("invalid_request", `id_token_hint must be at most ${MAX_ID_TOKEN_HINT_LENGTH} characters`)
    : pass({ idTokenHint: hint });
};

export type AuthorizeRuleEntry = { name: AuthorizeRuleName; onFailure: "error_page" | "redirect_error"; check: AuthorizeRule };

/** Failures shown on the hub's error page: the client or its redirect URI is not trusted yet. */
const ERROR_PAGE_RULES = { clientIdPresent, clientKnown, redirectUriPresent, redirectUriRegistered };
/** Failures sent back to the client's redirect URI (RFC 6749 §4.1.2.1). */
const REDIRECT_ERROR_RULES = {
  responseTypeSupported, scopePresentAndKnown, pkceMethodValid, responseModeValid, stateWithinLimit, nonceWithinLimit,
  nonceRequiredForImplicitOpenId, promptValid, idTokenHintWithinLimit,
};

/** A group's rules in the order written (object keys keep it), named by their keys: bundlers may minify function names. */
function inOrder<N extends AuthorizeRuleName>(onFailure: AuthorizeRuleEntry["onFailure"], checks: Record<N, AuthorizeRule>): AuthorizeRuleEntry[] {
  // Object.keys types its result as string[]; the keys of a Record<N, …> literal are N.
  return (Object.keys(checks) as N[]).map((name) => ({ name, onFailure, check: checks[name] }));
}

/** THE order of validation: the error-page rules first, then the redirect-error rules. */
export const AUTHORIZE_RULES: readonly AuthorizeRuleEntry[] = [...inOrder("error_page", ERROR_PAGE_RULES), ...inOrder("redirect_error", REDIRECT_ERROR_RULES)];

/**
 * Where a redirected error goes: a valid explicit response_mode, else the default for the
 * response types if they parsed, else the query (RFC 6749 §4.1.2.1, e.g. for an unsupported
 * response_type).
 */
function errorResponseMode(params: AuthorizeParams, draft: AuthorizeDraft): ResponseMode {
  if (draft.responseMode !== undefined) return draft.responseMode;
  const explicit = param(params, "response_mode");
  if (explicit !== undefined && isResponseMode(explicit)) return explicit;
  return draft.responseTypes === undefined ? "query" : defaultResponseMode(draft.responseTypes);
}

/** RFC 6749 §4.1.2.1: state is returned on errors too, unless it is the oversized value we refused. */
function echoableState(params: AuthorizeParams): string | undefined {
  const state = param(params, "state");
  return state !== undefined && state.length <= MAX_STATE_LENGTH ? state : undefined;
}

function redirectError(
  name: AuthorizeRuleName,
  error: OAuthError,
  redirectUri: string,
  params: AuthorizeParams,
  draft: AuthorizeDraft,
): AuthorizeValidation {
  const responseMode = errorResponseMode(params, draft);
  const state = echoableState(params);
  const location = buildRedirect(
    redirectUri,
    { error: error.code, error_description: error.description, state },
    responseMode,
  );
  return { kind: "redirect_error", rule: name, error, redirectUri, responseMode, state, location };
}

/** Turns the accumulated draft into the normalized request; every field was set by a rule above. */
function finish(draft: AuthorizeDraft): AuthorizeRequest {
  const { clientId, redirectUri, responseTypes, scope, responseMode } = draft;
  if (
    clientId === undefined ||
    redirectUri === undefined ||
    responseTypes === undefined ||
    scope === undefined ||
    responseMode === undefined
  ) {
    // Only reachable if AUTHORIZE_RULES is edited inconsistently: a programming error, not input.
    throw new Error("AUTHORIZE_RULES did not establish every field of the request");
  }
  const request: AuthorizeRequest = {
    clientId, redirectUri, responseTypes, scope, responseMode, openid: draft.openid ?? false, prompt: draft.prompt ?? new Set(),
  };
  if (draft.idTokenHint !== undefined) request.idTokenHint = draft.idTokenHint;
  if (draft.state !== undefined) request.state = draft.state;
  if (draft.nonce !== undefined) request.nonce = draft.nonce;
  if (draft.codeChallenge !== undefined) {
    request.codeChallenge = draft.codeChallenge;
    request.codeChallengeMethod = "S256";
  }
  return request;
}

/** Runs AUTHORIZE_RULES in order and stops at the first failure. */
export function validateAuthorizeRequest(
  params: AuthorizeParams,
  client: AuthorizeClient | null,
): AuthorizeValidation {
  let draft: AuthorizeDraft = {};
  for (const rule of AUTHORIZE_RULES) {
    const outcome = rule.check({ params, client, draft });
    if (!outcome.ok) {
      if (rule.onFailure === "error_page" || draft.redirectUri === undefined) {
        return { kind: "error_page", rule: rule.name, error: outcome.error };
      }
      return redirectError(rule.name, outcome.error, draft.redirectUri, params, draft);
    }
    draft = { ...draft, ...outcome.set };
  }
  return { kind: "ok", request: finish(draft) };
}
