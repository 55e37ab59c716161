import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { database } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import { signAccessToken, signIdToken, type SigningKey } from "@/lib/oauth/jwt";
import { ACCESS_TOKEN_TTL_SECONDS, ID_TOKEN_TTL_SECONDS } from "./lifetimes";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { getSigningKey } from "./signing-keys";

export interface TIssuedTokens {
  accessToken?: string;
  idToken?: string;
  /** Lifetime of the access token, in seconds (RFC 6749 §5.1 expires_in). */
  expiresIn: number;
  scope: string;
  /** The application's pairwise id of the profile: `sub` of both tokens and `user_id` of the responses. */
  subject: string;
}

export interface TIssueTokensInput {
  application: { id: string; clientId: string };
  /** The profile (global id; the tokens carry the application's pairwise id of it). */
  profileId: string;
  scope: readonly string[];
  nonce?: string | null;
  /** Set for tokens obtained with a code, so replaying the code can revoke them. */
  codeId?: string;
  accessToken: boolean;
  idToken: boolean;
  now?: Date;
  /** Sign with this key (default: the active one). */
  key?: SigningKey;
}

/** A token's row: its jti is honoured by user info while the row exists and is not revoked. */
export interface TTokenRow {
  jti: string;
  applicationId: string;
  profileId: string;
  codeId: string | null;
  scope: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * The INSERT of token rows given as one jsonb parameter (`rowsParam`, e.g. `$1`) — optionally only
 * `when` a condition holds (exchange-code.ts: only if this request claimed the code).
 */
export function recordTokenRowsSql(rowsParam: string, when?: string): string {
  return `
INSERT INTO "AccessToken" (jti, "applicationId", "profileId", "codeId", scope, "createdAt", "expiresAt")
SELECT r.jti, r."applicationId", r."profileId", r."codeId", r.scope, r."createdAt", r."expiresAt"
  FROM jsonb_to_recordset(${rowsParam}::jsonb)
       AS r(jti text, "applicationId" uuid, "profileId" uuid, "codeId" uuid, scope text, "createdAt" timestamptz, "expiresAt" timestamptz)
${when ? ` WHERE ${when}` : ""}`;
}

const RECORD_SQL = recordTokenRowsSql("$1");

/**
 * Signs the access token (RFC 9068 JWT) and/or the id token (OIDC Core §2; at_hash binds it to
 * the access token issued with it), and records each one's jti so it can be revoked. The rows
 * are written while the tokens are signed: a token is valid only once both are done.
 */
export async function issueTokens(input: TIssueTokensInput): Promise<TIssuedTokens> {
  const { rows, sign } = await planTokens(input);
  const [tokens] = await signWhileWriting(sign, rows.length > 0 ? database().sql.query(RECORD_SQL, [JSON.stringify(rows)], { prepared: true }) : Promise.resolve(null));
  return tokens;
}

/**
 * The tokens `sign` signs, and what `write` gives, the statement sent first: the signatures run on
 * this thread (docs/decisions/035), so they start on the event loop's next turn, once the driver
 * has sent the statement, and the database runs it meanwhile.
 */
export function signWhileWriting<S, T>(sign: () => Promise<S>, write: Promise<T>): Promise<[S, T]> {
  return Promise.all([nextTurn().then(sign), write]);
}

/**
 * The rows that will make the tokens valid (jti, profile, expiry: known before any signature),
 * and `sign()` for the tokens themselves, so a caller can record the rows while they are signed
 * (exchange-code.ts: the code's claim and the rows in one statement, during the signatures).
 */
export async function planTokens(input: TIssueTokensInput): Promise<{ rows: TTokenRow[]; sign: () => Promise<TIssuedTokens> }> {
  const now = input.now ?? new Date();
  const key = input.key ?? (await getSigningKey({ now }));
  const issuer = env().HUB_BASE_URL;
  const scope = input.scope.join(" ");
  // OIDC Core §8.1: a pairwise subject, the same one the application's Data API records carry.
  const subject = (await pairwiseIds({ kind: "application", id: input.application.id })).toPartner(input.profileId);

  // Both tokens' jtis are recorded: an access token or an id token presented to user info is
  // honoured only while its row exists and is not revoked (a replayed code revokes both).
  const record = { applicationId: input.application.id, profileId: input.profileId, codeId: input.codeId ?? null, scope, createdAt: now };
  const accessJti = input.accessToken ? randomUUID() : null;
  const idJti = input.idToken ? randomUUID() : null;
  const rows: TTokenRow[] = [];
  if (accessJti) rows.push({ jti: accessJti, ...record, expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000) });
  if (idJti) rows.push({ jti: idJti, ...record, expiresAt: new Date(now.getTime() + ID_TOKEN_TTL_SECONDS * 1000) });

  const sign = async (): Promise<TIssuedTokens> => {
    const result: TIssuedTokens = { expiresIn: ACCESS_TOKEN_TTL_SECONDS, scope, subject };
    if (accessJti) {
      result.accessToken = await signAccessToken({
        key, issuer, audience: input.application.clientId, subject, clientId: input.application.clientId,
        scope: input.scope, jti: accessJti, expiresInSeconds: ACCESS_TOKEN_TTL_SECONDS, now,
      });
    }
    if (idJti) {
      result.idToken = await signIdToken({
        key, issuer, clientId: input.application.clientId, subject, nonce: input.nonce ?? undefined,
        accessToken: result.accessToken, jti: idJti, expiresInSeconds: ID_TOKEN_TTL_SECONDS, now,
      });
    }
    return result;
  };
  return { rows, sign };
}
