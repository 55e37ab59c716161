// The demo partner application (/demo-app): what an edtech's server does to sign a hub user in
// with the authorization code flow and PKCE, written the way we ask partners to write it. It
// talks to the hub over HTTP only, exactly as an application on another host would:
//   1. discovery (/.well-known/openid-configuration);
//   2. authorization request with state, nonce and a PKCE S256 challenge; the verifier, state and
//      nonce stay server-side in an encrypted, httpOnly cookie;
//   3. on the callback: state must match (else the code was not requested here and is not
//      redeemed: login CSRF, RFC 9700 §4.7), token exchange with the spec's JSON body plus
//      redirect_uri and code_verifier, id token verified against the JWKS (iss, aud, exp, nonce,
//      sub = user_id, at_hash), then user info with `authorization` and `x-relationship-id`.
// The demo is co-hosted with the hub, so it reuses the hub secret to seal its cookies.
import { randomBytes } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { z } from "zod";
import { env } from "@/lib/env";
import { computeAtHash } from "@/lib/oauth/jwt";
import { createPkcePair } from "@/lib/oauth/pkce";
import { decryptSecret, encryptSecret } from "@/lib/server/crypto/secret-box";

/** Must match the demo application created by prisma/seed/demo.ts (DEMO.clientId / clientSecret). */
export const DEMO_APP = { clientId: "demo-app", clientSecret: "demo-secret" } as const;
export const DEMO_PENDING_COOKIE = "demo_app_pending";
export const DEMO_SESSION_COOKIE = "demo_app_session";
/** The sign-in attempt must come back within this time. */
export const DEMO_PENDING_MAX_AGE = 10 * 60;
export const DEMO_SESSION_MAX_AGE = 60 * 60;
const COOKIE_PURPOSE = "demo-app-cookie";

const ZMetadata = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  userinfo_endpoint: z.url(),
  jwks_uri: z.url(),
});
type TMetadata = z.infer<typeof ZMetadata>;

const ZPending = z.object({ state: z.string(), nonce: z.string(), verifier: z.string(), createdAt: z.number() });

const ZTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
  scope: z.string(),
  user_id: z.string(),
  id_token: z.string(),
});

const ZSession = z.object({
  userId: z.string(),
  userInfo: z.record(z.string(), z.unknown()),
  idTokenClaims: z.record(z.string(), z.unknown()),
  token: z.object({ token_type: z.string(), expires_in: z.number(), scope: z.string() }),
  signedInAt: z.number(),
});
export type TDemoSession = z.infer<typeof ZSession>;

export type TDemoError =
  | "hub_refused" // the hub redirected back with error=...
  | "expired" // the attempt took longer than DEMO_PENDING_MAX_AGE
  | "token_exchange_failed"
  | "id_token_invalid"
  | "user_info_failed"
  | "bad_callback";

export type TDemoCallbackResult =
  | { kind: "signed_in"; sessionCookie: string }
  | { kind: "error"; error: TDemoError; detail?: string }
  /** A code this application did not ask for (no matching state): shown, never redeemed. */
  | { kind: "unsolicited"; code: string; userId: string };

const seal = (value: unknown) => encryptSecret(JSON.stringify(value), COOKIE_PURPOSE);

function unseal<T>(schema: z.ZodType<T>, sealed: string | undefined): T | null {
  if (!sealed) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(decryptSecret(sealed, COOKIE_PURPOSE)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const issuer = () => env().HUB_BASE_URL;
export const demoRedirectUri = () => `${issuer()}/demo-app/callback`;
const random = () => randomBytes(32).toString("base64url");

let metadata: { issuer: string; value: TMetadata } | undefined;
const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** OIDC Discovery: the metadata's issuer must be the one we asked (Discovery §4.3). */
async function discover(): Promise<TMetadata> {
  if (metadata?.issuer === issuer()) return metadata.value;
  const response = await fetch(`${issuer()}/.well-known/openid-configuration`, { headers: { accept: "application/json" } });
  const value = ZMetadata.parse(await response.json());
  if (value.issuer !== issuer()) throw new Error("Discovery returned another issuer");
  metadata = { issuer: issuer(), value };
  return value;
}

function jwks(url: string): ReturnType<typeof createRemoteJWKSet> {
  let set = jwksByUrl.get(url);
  if (!set) jwksByUrl.set(url, (set = createRemoteJWKSet(new URL(url))));
  return set;
}

/** Step 2: where to send the browser, and the cookie that remembers this attempt. */
export async function startDemoSignIn({ loginHint }: { loginHint?: string } = {}): Promise<{ location: string; pendingCookie: string }> {
  const { authorization_endpoint } = await discover();
  const pkce = createPkcePair();
  const pending = { state: random(), nonce: random(), verifier: pkce.verifier, createdAt: Date.now() };
  const url = new URL(authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: DEMO_APP.clientId,
    redirect_uri: demoRedirectUri(),
    response_type: "code",
    scope: "user.info",
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    ...(loginHint ? { login_hint: loginHint } : {}),
  }).toString();
  return { location: url.toString(), pendingCookie: seal(pending) };
}

type TExchange = { ok: true; tokens: z.infer<typeof ZTokenResponse> } | { ok: false; error: string };

async function exchange(meta: TMetadata, code: string, verifier: string): Promise<TExchange> {
  const response = await fetch(meta.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    // The spec's JSON body, plus redirect_uri and code_verifier (RFC 6749 §4.1.3, RFC 7636 §4.5).
    body: JSON.stringify({
      grant_type: "authorization_code",
      client_id: DEMO_APP.clientId,
      client_secret: DEMO_APP.clientSecret,
      code,
      redirect_uri: demoRedirectUri(),
      code_verifier: verifier,
    }),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) return { ok: false, error: z.object({ error: z.string() }).safeParse(body).data?.error ?? `http_${response.status}` };
  const tokens = ZTokenResponse.safeParse(body);
  return tokens.success ? { ok: true, tokens: tokens.data } : { ok: false, error: "malformed_response" };
}

async function verifyIdToken(meta: TMetadata, idToken: string, expected: { nonce: string; userId: string; accessToken: string }) {
  try {
    const { payload } = await jwtVerify(idToken, jwks(meta.jwks_uri), { issuer: meta.issuer, audience: DEMO_APP.clientId, algorithms: ["RS256"] });
    const ok = payload.nonce === expected.nonce && payload.sub === expected.userId && payload.at_hash === computeAtHash(expected.accessToken);
    return ok ? payload : null;
  } catch {
    return null;
  }
}

/** Step 3: the callback. */
export async function finishDemoSignIn(options: { query: URLSearchParams; pendingCookie: string | undefined }): Promise<TDemoCallbackResult> {
  const { query } = options;
  const hubError = query.get("error");
  if (hubError) return { kind: "error", error: "hub_refused", detail: hubError };
  const code = query.get("code");
  const userId = query.get("user_id");
  if (!code || !userId) return { kind: "error", error: "bad_callback" };
  const pending = unseal(ZPending, options.pendingCookie);
  if (!pending || pending.state !== query.get("state")) return { kind: "unsolicited", code, userId };
  if (Date.now() - pending.createdAt > DEMO_PENDING_MAX_AGE * 1000) return { kind: "error", error: "expired" };

  const meta = await discover();
  const exchanged = await exchange(meta, code, pending.verifier);
  if (!exchanged.ok) return { kind: "error", error: "token_exchange_failed", detail: exchanged.error };
  const { tokens } = exchanged;
  if (tokens.user_id !== userId) return { kind: "error", error: "token_exchange_failed", detail: "user_id_mismatch" };
  const claims = await verifyIdToken(meta, tokens.id_token, { nonce: pending.nonce, userId, accessToken: tokens.access_token });
  if (!claims) return { kind: "error", error: "id_token_invalid" };

  const info = await fetch(meta.userinfo_endpoint, {
    headers: { authorization: `Bearer ${tokens.access_token}`, "x-relationship-id": userId, accept: "application/json" },
  });
  const userInfo: unknown = await info.json().catch(() => null);
  const parsedInfo = z.record(z.string(), z.unknown()).safeParse(userInfo);
  if (!info.ok || !parsedInfo.success) return { kind: "error", error: "user_info_failed", detail: `http_${info.status}` };

  const session: TDemoSession = {
    userId,
    userInfo: parsedInfo.data,
    idTokenClaims: { ...claims },
    token: { token_type: tokens.token_type, expires_in: tokens.expires_in, scope: tokens.scope },
    signedInAt: Date.now(),
  };
  return { kind: "signed_in", sessionCookie: seal(session) };
}

/** The demo's own session (who signed in), or null. */
export function readDemoSession(cookie: string | undefined): TDemoSession | null {
  const session = unseal(ZSession, cookie);
  return session && Date.now() - session.signedInAt < DEMO_SESSION_MAX_AGE * 1000 ? session : null;
}
