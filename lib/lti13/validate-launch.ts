/**
 * What a correct LTI 1.3 tool checks in the id_token it receives (LTI Core 1.3 §5.1.3, Security
 * Framework 1.0 §5.1.3): the reference tool and the launch tester use it. One rule per failure,
 * in order; the first that fails decides, and only its name is reported.
 */
import { decodeProtectedHeader, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { CLAIMS, type TMessageType } from "./claims";
import { joseFailure, type TJoseFailure } from "./jose-failure";

export type TLaunchRule =
  | "idTokenPresent"
  | "algIsRs256"
  | "kidKnown"
  | "signatureValid"
  | "issuerMatches"
  | "audienceIsClient"
  | "notExpired"
  | "nonceUnused"
  | "deploymentIdKnown"
  | "messageTypeSupported"
  | "versionIs130"
  | "requiredClaimsPresent";

export interface TLaunchExpectations {
  issuer: string;
  clientId: string;
  /** The platform's keys (a remote or local JWKS). */
  keys: JWTVerifyGetKey;
  deploymentIds: readonly string[];
  /** Atomic insert: true only the first time a nonce is seen (keep nonces for the token's life). */
  rememberNonce: (nonce: string) => Promise<boolean>;
  now?: Date;
  /** Seconds of clock skew allowed on exp/iat. */
  clockTolerance?: number;
}

export type TLaunchResult = { ok: true; claims: JWTPayload; messageType: TMessageType } | { ok: false; rule: TLaunchRule };

const fail = (rule: TLaunchRule): TLaunchResult => ({ ok: false, rule });

/** jose's failures in this file's rules. */
const RULE_OF: Record<TJoseFailure, TLaunchRule> = {
  kid: "kidKnown",
  alg: "algIsRs256",
  expired: "notExpired",
  issuer: "issuerMatches",
  audience: "audienceIsClient",
  claim: "requiredClaimsPresent",
  signature: "signatureValid",
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** LTI Core §5.3 / Deep Linking §4.4: the claims each message type cannot do without. */
function requiredClaimsPresent(claims: JWTPayload, messageType: TMessageType): boolean {
  if (!Array.isArray(claims[CLAIMS.roles])) return false;
  if (typeof claims[CLAIMS.targetLinkUri] !== "string" && messageType === "LtiResourceLinkRequest") return false;
  if (typeof claims.sub !== "string" || claims.sub === "") return false;
  if (messageType === "LtiResourceLinkRequest") {
    const link = claims[CLAIMS.resourceLink];
    return isObject(link) && typeof link.id === "string" && link.id !== "";
  }
  const settings = claims[CLAIMS.deepLinkingSettings];
  return isObject(settings) && typeof settings.deep_link_return_url === "string";
}

export async function validateLaunch(idToken: string | undefined, expect: TLaunchExpectations): Promise<TLaunchResult> {
  if (!idToken) return fail("idTokenPresent");
  let header;
  try {
    header = decodeProtectedHeader(idToken);
  } catch {
    return fail("signatureValid");
  }
  if (header.alg !== "RS256") return fail("algIsRs256");
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(idToken, expect.keys, {
      algorithms: ["RS256"],
      issuer: expect.issuer,
      audience: expect.clientId,
      currentDate: expect.now,
      clockTolerance: expect.clockTolerance ?? 5,
      requiredClaims: ["exp", "iat", "nonce"],
    }));
  } catch (error) {
    return fail(RULE_OF[joseFailure(error)]);
  }
  // OIDC Core §3.1.3.7: with several audiences, azp must be our client id.
  if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== expect.clientId) return fail("audienceIsClient");
  if (typeof claims.nonce !== "string" || !(await expect.rememberNonce(claims.nonce))) return fail("nonceUnused");
  if (!expect.deploymentIds.includes(String(claims[CLAIMS.deploymentId]))) return fail("deploymentIdKnown");
  const messageType = claims[CLAIMS.messageType];
  if (messageType !== "LtiResourceLinkRequest" && messageType !== "LtiDeepLinkingRequest") return fail("messageTypeSupported");
  if (claims[CLAIMS.version] !== "1.3.0") return fail("versionIs130");
  if (!requiredClaimsPresent(claims, messageType)) return fail("requiredClaimsPresent");
  return { ok: true, claims, messageType };
}
