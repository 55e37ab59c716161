/**
 * JWTs a tool signs for the hub: the Deep Linking response (Deep Linking 2.0 §4.5) and the client
 * assertion of the services' token request (Security Framework 1.0 §4.1, RFC 7523). Pure: the
 * tool's keys come in as a jose key getter.
 */
import { jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { CLAIMS } from "./claims";
import { joseFailure, type TJoseFailure } from "./jose-failure";

export type TToolJwtRule =
  | "signatureValid"
  | "kidKnown"
  | "issuerIsClient"
  | "audienceIsHub"
  | "notExpired"
  | "nonceOrJtiPresent"
  | "messageTypeIsResponse"
  | "versionIs130"
  | "deploymentIdMatches";

export type TToolJwtResult = { ok: true; claims: JWTPayload } | { ok: false; rule: TToolJwtRule };

/** jose's failures in this file's rules (an algorithm other than RS256 is a bad signature here). */
const RULE_OF: Record<TJoseFailure, TToolJwtRule> = {
  kid: "kidKnown",
  alg: "signatureValid",
  expired: "notExpired",
  issuer: "issuerIsClient",
  audience: "audienceIsHub",
  claim: "nonceOrJtiPresent",
  signature: "signatureValid",
};

interface TVerifyOptions {
  keys: JWTVerifyGetKey;
  clientId: string;
  /** Accepted audiences: the hub's issuer (deep linking) or also its token endpoint (client assertion). */
  audience: string | string[];
  now?: Date;
}

async function verify(token: string, options: TVerifyOptions, required: string[]): Promise<TToolJwtResult> {
  try {
    const { payload } = await jwtVerify(token, options.keys, {
      algorithms: ["RS256"],
      issuer: options.clientId,
      audience: options.audience,
      currentDate: options.now,
      clockTolerance: 5,
      requiredClaims: ["exp", "iat", ...required],
    });
    return { ok: true, claims: payload };
  } catch (error) {
    return { ok: false, rule: RULE_OF[joseFailure(error)] };
  }
}

export interface TContentItem {
  title: string | null;
  url: string | null;
  custom: Record<string, string>;
}

/** Deep Linking 2.0 §4.5: the response message, and its `ltiResourceLink` items (others are ignored). */
export async function verifyDeepLinkingResponse(
  token: string,
  options: TVerifyOptions & { deploymentId: string },
): Promise<({ ok: true; nonce: string; data: string | null; items: TContentItem[]; message: string | null }) | { ok: false; rule: TToolJwtRule }> {
  const verified = await verify(token, options, ["nonce"]);
  if (!verified.ok) return verified;
  const claims = verified.claims;
  if (claims[CLAIMS.messageType] !== "LtiDeepLinkingResponse") return { ok: false, rule: "messageTypeIsResponse" };
  if (claims[CLAIMS.version] !== "1.3.0") return { ok: false, rule: "versionIs130" };
  if (claims[CLAIMS.deploymentId] !== options.deploymentId) return { ok: false, rule: "deploymentIdMatches" };
  const raw = Array.isArray(claims[CLAIMS.contentItems]) ? (claims[CLAIMS.contentItems] as unknown[]) : [];
  const items: TContentItem[] = [];
  for (const item of raw) {
    if (typeof item !== "object" || item === null || (item as { type?: unknown }).type !== "ltiResourceLink") continue;
    const { title, url, custom } = item as { title?: unknown; url?: unknown; custom?: unknown };
    const customText: Record<string, string> = {};
    if (typeof custom === "object" && custom !== null) {
      for (const [name, value] of Object.entries(custom)) if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") customText[name] = String(value);
    }
    items.push({ title: typeof title === "string" ? title.slice(0, 200) : null, url: typeof url === "string" ? url : null, custom: customText });
  }
  const data = claims[CLAIMS.data];
  const message = claims[`${"https://purl.imsglobal.org/spec/lti-dl/claim/"}msg`];
  return { ok: true, nonce: String(claims.nonce), data: typeof data === "string" ? data : null, items, message: typeof message === "string" ? message : null };
}

/** RFC 7523 §3: iss = sub = client_id, aud = the hub (issuer or token endpoint), a jti, exp. */
export async function verifyClientAssertion(token: string, options: TVerifyOptions): Promise<({ ok: true; jti: string; exp: number }) | { ok: false; rule: TToolJwtRule }> {
  const verified = await verify(token, options, ["jti", "sub"]);
  if (!verified.ok) return verified;
  if (verified.claims.sub !== options.clientId) return { ok: false, rule: "issuerIsClient" };
  return { ok: true, jti: String(verified.claims.jti), exp: Number(verified.claims.exp) };
}
