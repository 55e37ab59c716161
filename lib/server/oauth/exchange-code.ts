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
// Steps 3 and 7's record are one statement, run while the tokens are signed (the claim and the token rows, atomic without a transaction of
// its own): a concurrent replay waits for the claim to commit, then sees the code used and
// revokes the tokens the first exchange just recorded. Once claimed, a code is spent even if a
// later check fails: single use means one attempt. Raw SQL, prepared on PostgreSQL: this is the
// hottest write of a school's morning (docs/decisions/021).
import { database } from "@/lib/server/db/database";
import { OAuthError } from "@/lib/oauth/errors";
import { verifyPkce } from "@/lib/oauth/pkce";
import { hashSecret } from "@/lib/oauth/secret";
import type { TokenRequest } from "@/lib/oauth/token-request";
import { logIdTokenIssued } from "@/lib/server/audit/log-id-token";
import { planTokens, recordTokenRowsSql, signWhileWriting, type TTokenRow } from "./issue-tokens";
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

export interface TCodeRow {
  id: string;
  applicationId: string;
  profileId: string;
  redirectUri: string;
  scope: string;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: Date;
}

/** The columns of TCodeRow, for the client's lookup to read the presented code with it (authenticate-client.ts). */
export const CODE_ROW_SQL = `SELECT c.id, c."applicationId", c."profileId", c."redirectUri", c.scope, c.nonce, c."codeChallenge", c."codeChallengeMethod", c."expiresAt"
  FROM "AuthorizationCode" c WHERE c."codeHash" = $1`;

/** The claim alone (a later check failed): 1 when this request spent the code, 0 when it was spent. */
const CLAIM_SQL = `UPDATE "AuthorizationCode" SET "usedAt" = $2 WHERE id = $1 AND "usedAt" IS NULL RETURNING id`;

/**
 * The claim and the tokens' rows: the rows are written only if this request spent the code
 * ($1 the code, $2 the time, $3 the rows; bench/hot-routes/token-floor-server.ts runs it too).
 */
export const CLAIM_AND_RECORD_SQL = `
WITH claimed AS (${CLAIM_SQL})
${recordTokenRowsSql("$3", "EXISTS (SELECT 1 FROM claimed)")}
RETURNING jti`;

const REVOKE_SQL = `UPDATE "AccessToken" SET "revokedAt" = $2 WHERE "codeId" = $1 AND "revokedAt" IS NULL`;

/** RFC 6749 §4.1.2: a code used twice revokes every token issued from it. */
async function refuseReplay(codeId: string, now: Date): Promise<OAuthError> {
  await database().sql.query(REVOKE_SQL, [codeId, now], { prepared: true });
  return invalidGrant("The authorization code was already used; tokens issued from it are revoked");
}

function laterCheck(code: TCodeRow, request: TokenRequest, now: Date): OAuthError | null {
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
  /** The row of request.code when the caller already read it (null: no such code). */
  code?: TCodeRow | null;
  now?: Date;
}): Promise<TTokenResponse | OAuthError> {
  const { application, request } = options;
  const now = options.now ?? new Date();
  const { sql } = database();
  const code = options.code !== undefined ? options.code : (await sql.query<TCodeRow>(CODE_ROW_SQL, [hashSecret(request.code)], { prepared: true }))[0];
  if (!code) return invalidGrant("The authorization code is invalid");
  if (code.applicationId !== application.id) return invalidGrant("The authorization code was issued to another client");

  const failure = laterCheck(code, request, now);
  if (failure) {
    const claimed = await sql.query(CLAIM_SQL, [code.id, now], { prepared: true });
    return claimed.length === 0 ? refuseReplay(code.id, now) : failure;
  }
  const { rows, sign } = await planTokens({
    application, profileId: code.profileId, scope: code.scope.split(" ").filter(Boolean), nonce: code.nonce,
    codeId: code.id, accessToken: true, idToken: true, now, key: await getSigningKey({ now }),
  });
  // The claim and the rows are written while the tokens are signed; if the code was spent
  // meanwhile, the signed tokens are dropped unsent.
  const [tokens, stored] = await signWhileWriting(
    sign,
    sql.query(CLAIM_AND_RECORD_SQL, [code.id, now, JSON.stringify(rows satisfies TTokenRow[])], { prepared: true }),
  );
  const { accessToken, idToken } = tokens;
  if (!accessToken || !idToken) throw new Error("planTokens did not sign both tokens");
  if (stored.length === 0) return refuseReplay(code.id, now);
  // Logged once committed: a refused exchange issued nothing.
  logIdTokenIssued({ applicationId: application.id, profileId: code.profileId });
  return {
    access_token: accessToken, token_type: "Bearer", expires_in: tokens.expiresIn, scope: tokens.scope,
    user_id: tokens.subject, id_token: idToken,
  };
}
