/**
 * Signing keys, access tokens (RFC 9068 JWT profile) and OpenID Connect id tokens.
 */
import { createHash, type KeyObject } from "node:crypto";
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type JWK,
  type JWTPayload,
} from "jose";
import { z } from "zod";
import { rs256SigningKey, signRs256Compact } from "./jose-compact";
import { OAuthError } from "./errors";

/** The only algorithm we sign with and accept (no `none`, no HMAC/RSA confusion: RFC 8725 §3.1). */
export const SIGNING_ALG = "RS256";

export type SigningKey = {
  kid: string;
  alg: typeof SIGNING_ALG;
  publicJwk: JWK;
  privateJwk: JWK;
};

/**
 * A new RSA-2048 key pair. The kid is the RFC 7638 thumbprint, so it is stable, unique per key
 * and lets verifiers pick the right key from the JWKS while old keys rotate out.
 */
export async function generateSigningKey(): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: 2048, extractable: true });
  const exportedPublic = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(exportedPublic, "sha256");
  const tags = { kid, alg: SIGNING_ALG, use: "sig" } as const;
  return {
    kid,
    alg: SIGNING_ALG,
    publicJwk: { ...exportedPublic, ...tags },
    privateJwk: { ...(await exportJWK(privateKey)), ...tags },
  };
}

/** Importing a JWK costs an RSA parse; keys are long-lived objects, so cache per key. */
const importedPrivateKeys = new WeakMap<SigningKey, KeyObject>();

function privateKeyOf(key: SigningKey): KeyObject {
  let imported = importedPrivateKeys.get(key);
  if (imported === undefined) {
    imported = rs256SigningKey(key.privateJwk);
    importedPrivateKeys.set(key, imported);
  }
  return imported;
}

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function assertLifetime(expiresInSeconds: number): void {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds <= 0) {
    throw new RangeError("expiresInSeconds must be a positive integer");
  }
}

export type AccessTokenInput = {
  key: SigningKey;
  issuer: string;
  /** The client the token was issued to (design decision: aud = client_id). */
  audience: string;
  /** The profile id. */
  subject: string;
  clientId: string;
  scope: readonly string[];
  jti: string;
  expiresInSeconds: number;
  now: Date;
};

/**
 * RFC 9068 §2.1: header typ "at+jwt" so an access token cannot be replayed as an id token (or
 * the reverse); §2.2: iss, exp, aud, sub, client_id, iat, jti; §2.2.3: scope as a
 * space-separated string. The jti is recorded by the caller so the token can be revoked.
 */
export async function signAccessToken(input: AccessTokenInput): Promise<string> {
  return signOurJwt({ client_id: input.clientId, scope: input.scope.join(" "), jti: input.jti }, "at+jwt", input.audience, input);
}

/**
 * One of our JWTs: RS256 with our key's kid, iss, sub, aud, iat = now and exp = now + lifetime.
 * Signed synchronously with node:crypto (jose-compact.ts, docs/decisions/035).
 */
async function signOurJwt(
  payload: JWTPayload,
  typ: "at+jwt" | "JWT",
  audience: string,
  input: { key: SigningKey; issuer: string; subject: string; expiresInSeconds: number; now: Date },
): Promise<string> {
  assertLifetime(input.expiresInSeconds);
  const iat = epochSeconds(input.now);
  const claims = { ...payload, iss: input.issuer, sub: input.subject, aud: audience, iat, exp: iat + input.expiresInSeconds };
  return signRs256Compact({ typ, kid: input.key.kid }, claims, privateKeyOf(input.key));
}

/**
 * OIDC Core §3.1.3.6 / §3.2.2.9: at_hash is the base64url of the left-most half of the hash of
 * the ASCII access token, using the hash of the id token's alg (RS256 → SHA-256, so 16 bytes).
 */
export function computeAtHash(accessToken: string): string {
  const digest = createHash("sha256").update(accessToken, "ascii").digest();
  return digest.subarray(0, digest.length / 2).toString("base64url");
}

export type IdTokenInput = {
  key: SigningKey;
  issuer: string;
  clientId: string;
  /** The profile id. */
  subject: string;
  nonce?: string;
  /** Recorded by the caller, so an id token presented to user info can be revoked like an access token. */
  jti?: string;
  /** When the id token is issued alongside an access token, binds them with at_hash. */
  accessToken?: string;
  expiresInSeconds: number;
  now: Date;
  extraClaims?: Readonly<Record<string, unknown>>;
};

/**
 * OIDC Core §2: iss, sub, aud (= client_id), exp, iat, plus nonce (§3.1.2.1, replay defence) and
 * at_hash. Extra claims go first so they can never override a registered claim.
 */
export async function signIdToken(input: IdTokenInput): Promise<string> {
  const payload: JWTPayload = { ...input.extraClaims };
  if (input.nonce !== undefined) payload.nonce = input.nonce;
  if (input.accessToken !== undefined) payload.at_hash = computeAtHash(input.accessToken);
  if (input.jti !== undefined) payload.jti = input.jti;
  return signOurJwt(payload, "JWT", input.clientId, input);
}

/** The claims we rely on after the signature checks out (RFC 9068 §2.2). */
const accessTokenClaimsSchema = z.object({
  iss: z.string(),
  sub: z.string().min(1),
  aud: z.union([z.string(), z.array(z.string())]),
  exp: z.number(),
  iat: z.number(),
  jti: z.string().min(1),
  client_id: z.string().min(1),
  scope: z.string(),
});

export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;

export type VerifyAccessTokenOptions = {
  issuer: string;
  /**
   * The current public keys (JWKS `keys`), including keys being rotated out. May answer from a
   * cache: when no key matches the token's kid it is asked again with `fresh: true`. Returning the
   * same array object again lets the imported keys be reused.
   */
  getPublicKeys: (options?: { fresh: boolean }) => Promise<JWK[]>;
  now?: Date;
};

/** One key set per list of keys, so each key is imported once, not on every verification. */
const keySets = new WeakMap<JWK[], ReturnType<typeof createLocalJWKSet>>();
function keySetOf(keys: JWK[]): ReturnType<typeof createLocalJWKSet> {
  let keySet = keySets.get(keys);
  if (!keySet) {
    keySet = createLocalJWKSet({ keys });
    keySets.set(keys, keySet);
  }
  return keySet;
}

/**
 * One of our JWTs of the given `typ`, RS256 only, our issuer, the claims `schema` asks for. Any
 * token problem is invalid_token (RFC 6750 §3.1), "expired" told apart; `allowExpired` returns
 * an expired token's claims instead (jose checks the signature before the claims, so they are
 * authentic). A failure to load keys is not the token's fault, so it is thrown, not mapped.
 */
async function verifyOurJwt<T>(
  token: string,
  options: VerifyAccessTokenOptions & { allowExpired?: boolean },
  kind: { label: string; typ: string; requiredClaims: string[]; schema: z.ZodType<T> },
): Promise<T | OAuthError> {
  const invalid = new OAuthError("invalid_token", `The ${kind.label} is invalid`);
  const verify = async (fresh: boolean) =>
    jwtVerify(token, keySetOf(await options.getPublicKeys({ fresh })), {
      algorithms: [SIGNING_ALG],
      typ: kind.typ,
      issuer: options.issuer,
      currentDate: options.now,
      requiredClaims: kind.requiredClaims,
    });
  let payload: JWTPayload;
  try {
    ({ payload } = await verify(false).catch((error: unknown) => {
      // A key newer than the cached list (created by another instance): ask for the keys again.
      if (error instanceof errors.JWKSNoMatchingKey) return verify(true);
      throw error;
    }));
  } catch (error) {
    if (options.allowExpired && error instanceof errors.JWTExpired) payload = error.payload;
    else if (error instanceof errors.JWTExpired) return new OAuthError("invalid_token", `The ${kind.label} expired`);
    else if (error instanceof errors.JOSEError) return invalid;
    else throw error;
  }
  const claims = kind.schema.safeParse(payload);
  return claims.success ? claims.data : invalid;
}

/**
 * RFC 9068 §4: verify signature with RS256 only, typ at+jwt, iss and exp. Revocation (jti) is
 * checked by the caller against storage.
 */
export function verifyAccessToken(token: string, options: VerifyAccessTokenOptions): Promise<AccessTokenClaims | OAuthError> {
  return verifyOurJwt(token, options, {
    label: "access token",
    typ: "at+jwt",
    requiredClaims: ["exp", "iat", "jti", "sub", "aud", "client_id", "scope"],
    schema: accessTokenClaimsSchema,
  });
}

/** The claims of one of our id tokens that its verifiers rely on (OIDC Core §2). */
const idTokenClaimsSchema = z.object({
  iss: z.string(),
  sub: z.string().min(1),
  aud: z.union([z.string(), z.array(z.string()).length(1)]).transform((aud) => (typeof aud === "string" ? aud : aud[0]!)),
  exp: z.number(),
  iat: z.number(),
  jti: z.string().min(1).optional(),
});

export type IdTokenClaims = z.infer<typeof idTokenClaimsSchema>;

/**
 * Verifies one of our id tokens: RS256 only, typ JWT (never an at+jwt), our issuer, one audience
 * (the client). `allowExpired` is for `id_token_hint`, which OIDC Core §3.1.2.1 lets clients send
 * after expiry: the signature and issuer still have to hold.
 */
export function verifyIdToken(
  token: string,
  options: VerifyAccessTokenOptions & { allowExpired?: boolean },
): Promise<IdTokenClaims | OAuthError> {
  return verifyOurJwt(token, options, { label: "id token", typ: "JWT", requiredClaims: ["exp", "iat", "sub", "aud"], schema: idTokenClaimsSchema });
}

/** `typ` of a JWT's protected header, or null when the text is not a JWT at all. */
export function jwtType(token: string): string | null {
  try {
    const typ = decodeProtectedHeader(token).typ;
    return typeof typ === "string" ? typ : null;
  } catch {
    return null;
  }
}

/** Only the public members of an RSA key, whatever the stored JWK holds. */
function publicMembers(key: SigningKey): JWK {
  const { kty, n, e } = key.publicJwk;
  return { kty, n, e, kid: key.kid, alg: key.alg, use: "sig" };
}

/** The body of /.well-known/jwks.json (RFC 7517 §5). */
export function publicJwks(keys: readonly SigningKey[]): { keys: JWK[] } {
  return { keys: keys.map(publicMembers) };
}
