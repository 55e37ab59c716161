/**
 * Signs an LTI 1.0 basic launch as an OAuth 1.0 HMAC-SHA1 form POST.
 * Nothing here touches the network or a database: the caller renders the
 * result as an auto-submitting form.
 */
import { randomBytes } from "node:crypto";
import { signatureBaseString, type ParamPair } from "./base-string";
import { hmacSha1Signature } from "./hmac-sha1";

export interface SignLaunchInput {
  launchUrl: string;
  consumerKey: string;
  consumerSecret: string;
  params: Record<string, string>;
  callbackUrl: string;
  /** Unix seconds; injectable so tests are deterministic. */
  timestamp?: number;
  nonce?: string;
}

export interface SignedLaunch {
  /** The form's action: the launch URL exactly as registered. */
  action: string;
  /** Form fields in order, oauth_signature last. */
  fields: Array<[string, string]>;
}

const LAUNCH_METHOD = "POST";

/** 128 random bits, base64url so it survives forms and logs unescaped. */
function newNonce(): string {
  return randomBytes(16).toString("base64url");
}

function currentUnixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function assertNoOauthNames(names: Iterable<string>, where: string): void {
  for (const name of names) {
    // A caller-supplied oauth_* would be a duplicate protocol parameter,
    // which verifiers must refuse (RFC 5849 §3.2).
    if (name.startsWith("oauth_")) throw new Error(`${where} must not contain ${name}`);
  }
}

export function signLaunch(input: SignLaunchInput): SignedLaunch {
  const { launchUrl, consumerKey, consumerSecret, params, callbackUrl } = input;
  const timestamp = input.timestamp ?? currentUnixSeconds();
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be whole unix seconds, got ${timestamp}`);
  }
  assertNoOauthNames(Object.keys(params), "params");
  assertNoOauthNames(new URL(launchUrl).searchParams.keys(), "launchUrl query");

  const unsigned: ParamPair[] = [
    ...Object.entries(params),
    ["oauth_consumer_key", consumerKey],
    ["oauth_signature_method", "HMAC-SHA1"],
    ["oauth_timestamp", String(timestamp)],
    ["oauth_nonce", input.nonce ?? newNonce()],
    ["oauth_version", "1.0"],
    ["oauth_callback", callbackUrl],
  ];
  // The launch URL's own query is read from launchUrl by the base string and
  // travels in the action URL, so it is signed once and never copied into fields.
  const baseString = signatureBaseString(LAUNCH_METHOD, launchUrl, unsigned);
  const signature = hmacSha1Signature(baseString, consumerSecret);
  return { action: launchUrl, fields: [...unsigned, ["oauth_signature", signature]] };
}
