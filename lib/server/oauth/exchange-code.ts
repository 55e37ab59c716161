// The authorization_code grant (RFC 6749 §4.1.3, RFC 7636 §4.6), checks in this order:
//   1. the code exists (looked up by its SHA-256)          → else invalid_grant
//   2. it was issued to the authenticated client          → else invalid_grant (code untouched)
//   3. it was not used before: claimed atomically         → else invalid_grant, and every token
//                                                            issued from it is revoked (§4.1.2)
//   4. it has not expired (60 s)                          → else invalid_grant
//   5. redirect_uri, when sent, is the one of the request → else invalid_grant
//   6. PKCE: a verifier matching the stored challenge; no
//      verifier when no challenge was sent (RFC 9700 §2.1.1) → else invalid_grant
//   7. tokens are signed and the access token recorded with the code's id.
// Steps 3–7 run in one transaction: a concurrent replay waits for the claim to commit, then sees
// the code used and revokes the token the first exchange just recorded. Once claimed, a code is
// spent even if a later check fails: single use means one attempt.
import { db } from "@/lib/server/db/database";
import type { AuthorizationCode } from "@/lib/generated/prisma/client";
import { OAuthError } from "@/lib/oauth/errors";
import { verifyPkce } from "@/lib/oauth/pkce";
import { hashSecret } from "@/lib/oauth/secret";
import type { TokenRequest } from "@/lib/oauth/token-request";
import { logIdTokenIssued } from "@/lib/server/audit/log-id-token";
import { issueTokens } from "./issue-tokens";
import { getSigningKey } from "./signing-keys";

export interface TTokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  user_id: string;
  id_token: string;
}

const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);

function laterCheck(code: AuthorizationCode, request: TokenRequest, now: Date): OAuthError | null {
  if (code.expiresAt.getTime() <= now.getTime()) return invalidGrant("The authorization code expired");
  if (request.redirectUri !== undefined && request.redirectUri !== code.redirectUri) {
    return invalidGrant("redirect_uri does not match the authorization request");
  }
  if (code.codeChallenge) {
    if (request.codeVerifier === undefined) return invalidGrant("code_verifier is required for this code");
    if (code.codeChallengeMethod !== "S256" || !verifyPkce(request.codeVerifier, code.codeChallenge, "S256")) {
      return invalidGrant("code_verifier does not match the code_challenge");
    }
  } else if (request.codeVerifier !== undefined) {
    return invalidGrant("code_verifier sent for a code issued without code_challenge");
  }
  return null;
}

export async function exchangeCode(options: {
  application: { id: string; clientId: string };
  request: TokenRequest;
  now?: Date;
}): Promise<TTokenResponse | OAuthError> {
  const { application, request } = options;
  const now = options.now ?? new Date();
  const code = await db().authorizationCode.findUnique({ where: { codeHash: hashSecret(request.code) } });
  if (!code) return invalidGrant("The authorization code is invalid");
  if (code.applicationId !== application.id) return invalidGrant("The authorization code was issued to another client");
  const key = await getSigningKey({ now });

  const result = await db().$transaction(async (tx) => {
    const claimed = await tx.authorizationCode.updateMany({ where: { id: code.id, usedAt: null }, data: { usedAt: now } });
    if (claimed.count === 0) {
      await tx.accessToken.updateMany({ where: { codeId: code.id, revokedAt: null }, data: { revokedAt: now } });
      return invalidGrant("The authorization code was already used; tokens issued from it are revoked");
    }
    const failure = laterCheck(code, request, now);
    if (failure) return failure;
    const tokens = await issueTokens({
      application, profileId: code.profileId, scope: code.scope.split(" ").filter(Boolean), nonce: code.nonce,
      codeId: code.id, accessToken: true, idToken: true, now, key, tx,
    });
    const { accessToken, idToken } = tokens;
    if (!accessToken || !idToken) throw new Error("issueTokens did not return both tokens");
    const response: TTokenResponse = {
      access_token: accessToken, token_type: "Bearer", expires_in: tokens.expiresIn, scope: tokens.scope,
      user_id: tokens.subject, id_token: idToken,
    };
    return response;
  });
  // Logged once committed: a rolled-back exchange issued nothing.
  if (!(result instanceof OAuthError)) logIdTokenIssued({ applicationId: application.id, profileId: code.profileId });
  return result;
}
