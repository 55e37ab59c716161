import * as client from "openid-client";
import { log } from "@/lib/server/log.mjs";
import { PROVIDER_PRESETS } from "@/lib/upstream/presets";
import { describeUpstreamError } from "./describe-upstream-error";
import { PENDING_MAX_AGE_S, sealPending } from "./pending-sign-in";
import { findProvider } from "./provider-row";
import { upstreamClient, upstreamRedirectUri } from "./upstream-client";

export type TStartResult = { ok: true; location: string; pending: string } | { ok: false; reason: "desativado" | "provedor" };

/**
 * Sends a browser to an upstream provider: the authorization request (code flow, PKCE S256, a
 * fresh state and nonce), and the sealed pending sign-in to keep in the browser's cookie. The
 * state, nonce and verifier never appear anywhere else (no log, no page).
 */
export async function startUpstreamSignIn(options: { providerId: string; callbackUrl: string; loginHint?: string | null; linkFor?: string | null }): Promise<TStartResult> {
  // A button of a page opened before its provider was deleted (or a made-up link) reads like a disabled one.
  const row = await findProvider(options.providerId);
  if (!row?.enabled) return { ok: false, reason: "desativado" };
  let config: client.Configuration;
  try {
    config = await upstreamClient(row);
  } catch (error) {
    log().warn({ providerId: row.id, error: describeUpstreamError(error) }, "Upstream discovery failed");
    return { ok: false, reason: "provedor" };
  }
  const pending = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    providerId: row.id,
    callbackUrl: options.callbackUrl,
    expiresAt: Date.now() + PENDING_MAX_AGE_S * 1000,
    ...(options.linkFor ? { linkFor: options.linkFor } : {}),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: upstreamRedirectUri(),
    response_type: "code",
    scope: PROVIDER_PRESETS[row.kind].scope,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: "S256",
    ...(options.loginHint ? { login_hint: options.loginHint } : {}),
  });
  return { ok: true, location: url.href, pending: sealPending(pending) };
}
