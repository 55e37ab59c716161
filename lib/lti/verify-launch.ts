/**
 * Reference verifier for LTI 1.0 basic launches signed with OAuth 1.0
 * HMAC-SHA1. This is the file edtechs are told to copy: it depends only on
 * node:crypto and its siblings, and storage is injected through `deps`.
 *
 * The checks are one ordered list of small named rules. Cheap, local checks
 * run first, so malformed or stale requests never reach storage; the secret
 * lookup, the signature and only then the nonce insert follow, so a forged
 * request cannot burn a legitimate user's nonce.
 */
import { timingSafeEqual } from "node:crypto";
import { signatureBaseString, type ParamPair } from "./base-string";
import { hmacSha1Signature } from "./hmac-sha1";

export interface LaunchRequest {
  method: string;
  /** The full URL the tool was called at, query included. */
  url: string;
  /** The decoded application/x-www-form-urlencoded body, in order. */
  fields: Array<[string, string]>;
}

export interface VerifyDeps {
  /** Unix seconds. */
  now: () => number;
  lookupSecret: (consumerKey: string) => Promise<string | null>;
  /** Atomic insert: true the first time (key, nonce) is seen, false on replay. Keep entries ≥ 2 × window. */
  rememberNonce: (consumerKey: string, nonce: string, timestamp: number) => Promise<boolean>;
  /** Allowed clock skew either way; default 300. */
  windowSeconds?: number;
}

export type VerifyResult =
  | { ok: true; params: Record<string, string>; consumerKey: string }
  | { ok: false; rule: string; message: string };

export const DEFAULT_WINDOW_SECONDS = 300;

/** What the rules read. `secret` is filled in by consumerKeyKnown for signatureMatches. */
export interface LaunchCheckContext {
  readonly request: LaunchRequest;
  readonly deps: VerifyDeps;
  /** Launch-URL query pairs followed by body fields, as received. */
  readonly pairs: ReadonlyArray<ParamPair>;
  /** Same pairs by name; a body field overrides a launch-URL query parameter of the same name. */
  readonly values: ReadonlyMap<string, string>;
  secret: string | null;
}

/** A failure message, or undefined when the rule passes. */
export type RuleOutcome = string | undefined;

export interface LaunchRule {
  readonly name: string;
  readonly check: (ctx: LaunchCheckContext) => RuleOutcome | Promise<RuleOutcome>;
}

/** oauthParamsUnique guarantees oauth_* have one value, so "last wins" only matters for LTI names. */
function param(ctx: LaunchCheckContext, name: string): string | undefined {
  return ctx.values.get(name);
}

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/** Compare without leaking where the first differing byte is. */
function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  // Only the length can leak, and an HMAC-SHA1 base64 length is public anyway.
  return left.length === right.length && timingSafeEqual(left, right);
}

const methodIsPost: LaunchRule = {
  name: "methodIsPost",
  check: (ctx) => (ctx.request.method.toUpperCase() === "POST" ? undefined : "LTI launches are POST requests"),
};

const urlIsHttp: LaunchRule = {
  name: "urlIsHttp",
  check: (ctx) => (isHttpUrl(ctx.request.url) ? undefined : "request URL must be an absolute http(s) URL"),
};

const oauthParamsUnique: LaunchRule = {
  name: "oauthParamsUnique",
  check: (ctx) => {
    const seen = new Set<string>();
    for (const [name] of ctx.pairs) {
      if (!name.startsWith("oauth_")) continue;
      // RFC 5849 §3.2: a repeated protocol parameter makes "which one was signed" ambiguous.
      if (seen.has(name)) return `duplicate protocol parameter ${name}`;
      seen.add(name);
    }
    return undefined;
  },
};

const consumerKeyPresent: LaunchRule = {
  name: "consumerKeyPresent",
  check: (ctx) => (param(ctx, "oauth_consumer_key") ? undefined : "oauth_consumer_key is missing"),
};

const signatureMethodIsHmacSha1: LaunchRule = {
  name: "signatureMethodIsHmacSha1",
  check: (ctx) =>
    param(ctx, "oauth_signature_method") === "HMAC-SHA1" ? undefined : "oauth_signature_method must be HMAC-SHA1",
};

const oauthVersionIs1_0: LaunchRule = {
  name: "oauthVersionIs1_0",
  check: (ctx) => (param(ctx, "oauth_version") === "1.0" ? undefined : "oauth_version must be 1.0"),
};

const timestampIsNumeric: LaunchRule = {
  name: "timestampIsNumeric",
  // Digits only (no sign, exponent or fraction), short enough to be a safe integer.
  check: (ctx) =>
    /^[0-9]{1,15}$/.test(param(ctx, "oauth_timestamp") ?? "") ? undefined : "oauth_timestamp must be unix seconds",
};

const timestampWithinWindow: LaunchRule = {
  name: "timestampWithinWindow",
  check: (ctx) => {
    const window = ctx.deps.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
    const skew = Math.abs(ctx.deps.now() - Number(param(ctx, "oauth_timestamp")));
    // Bounding the age is what lets the nonce store forget entries after 2 × window.
    return skew <= window ? undefined : `oauth_timestamp is ${skew}s away from now (allowed ${window}s)`;
  },
};

const nonceNotEmpty: LaunchRule = {
  name: "nonceNotEmpty",
  check: (ctx) => (param(ctx, "oauth_nonce") ? undefined : "oauth_nonce is missing"),
};

const consumerKeyKnown: LaunchRule = {
  name: "consumerKeyKnown",
  check: async (ctx) => {
    ctx.secret = await ctx.deps.lookupSecret(param(ctx, "oauth_consumer_key") ?? "");
    return ctx.secret === null ? "unknown oauth_consumer_key" : undefined;
  },
};

const signatureMatches: LaunchRule = {
  name: "signatureMatches",
  check: (ctx) => {
    const given = param(ctx, "oauth_signature");
    if (!given) return "oauth_signature is missing";
    if (ctx.secret === null) return "no secret for oauth_consumer_key"; // unreachable after consumerKeyKnown
    // The base string reads the query from the URL itself, so body fields alone are passed here.
    const baseString = signatureBaseString(ctx.request.method, ctx.request.url, ctx.request.fields);
    const expected = hmacSha1Signature(baseString, ctx.secret);
    return constantTimeEqual(expected, given) ? undefined : "oauth_signature does not match";
  },
};

const nonceUnused: LaunchRule = {
  name: "nonceUnused",
  check: async (ctx) => {
    const fresh = await ctx.deps.rememberNonce(
      param(ctx, "oauth_consumer_key") ?? "",
      param(ctx, "oauth_nonce") ?? "",
      Number(param(ctx, "oauth_timestamp")),
    );
    return fresh ? undefined : "oauth_nonce was already used";
  },
};

const ltiMessageTypeIsBasicLaunch: LaunchRule = {
  name: "ltiMessageTypeIsBasicLaunch",
  check: (ctx) =>
    param(ctx, "lti_message_type") === "basic-lti-launch-request"
      ? undefined
      : "lti_message_type must be basic-lti-launch-request",
};

const ltiVersionIs1p0: LaunchRule = {
  name: "ltiVersionIs1p0",
  check: (ctx) => (param(ctx, "lti_version") === "LTI-1p0" ? undefined : "lti_version must be LTI-1p0"),
};

const resourceLinkIdPresent: LaunchRule = {
  name: "resourceLinkIdPresent",
  check: (ctx) => (param(ctx, "resource_link_id") ? undefined : "resource_link_id is missing"),
};

/** Run in this order; the first failure stops the launch. */
export const LAUNCH_RULES: readonly LaunchRule[] = [
  methodIsPost,
  urlIsHttp,
  oauthParamsUnique,
  consumerKeyPresent,
  signatureMethodIsHmacSha1,
  oauthVersionIs1_0,
  timestampIsNumeric,
  timestampWithinWindow,
  nonceNotEmpty,
  consumerKeyKnown,
  signatureMatches,
  nonceUnused,
  ltiMessageTypeIsBasicLaunch,
  ltiVersionIs1p0,
  resourceLinkIdPresent,
];

function queryPairs(url: string): ParamPair[] {
  try {
    return [...new URL(url).searchParams.entries()];
  } catch {
    return []; // urlIsHttp reports the bad URL
  }
}

/** The LTI message the tool acts on: everything but the OAuth protocol parameters. */
function launchParams(values: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries([...values].filter(([name]) => !name.startsWith("oauth_")));
}

export async function verifyLaunch(request: LaunchRequest, deps: VerifyDeps): Promise<VerifyResult> {
  const pairs = [...queryPairs(request.url), ...request.fields];
  const ctx: LaunchCheckContext = { request, deps, pairs, values: new Map(pairs), secret: null };
  for (const rule of LAUNCH_RULES) {
    const failure = await rule.check(ctx);
    if (failure !== undefined) return { ok: false, rule: rule.name, message: failure };
  }
  return { ok: true, params: launchParams(ctx.values), consumerKey: param(ctx, "oauth_consumer_key") ?? "" };
}
