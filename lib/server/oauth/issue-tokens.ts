import { randomUUID } from "node:crypto";
import { db } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
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
  /** Sign with this key (the caller fetched it before opening a transaction). */
  key?: SigningKey;
  /** Record the access token inside the caller's transaction. */
  tx?: Prisma.TransactionClient;
}

/**
 * Signs the access token (RFC 9068 JWT) and/or the id token (OIDC Core §2; at_hash binds it to
 * the access token issued with it), and records each one's jti so it can be revoked.
 */
export async function issueTokens(input: TIssueTokensInput): Promise<TIssuedTokens> {
  const now = input.now ?? new Date();
  const key = input.key ?? (await getSigningKey({ now }));
  const issuer = env().HUB_BASE_URL;
  const scope = input.scope.join(" ");
  // OIDC Core §8.1: a pairwise subject, the same one the application's Data API records carry.
  const subject = (await pairwiseIds({ kind: "application", id: input.application.id })).toPartner(input.profileId);
  const result: TIssuedTokens = { expiresIn: ACCESS_TOKEN_TTL_SECONDS, scope, subject };

  // Both tokens' jtis are recorded: an access token or an id token presented to user info is
  // honoured only while its row exists and is not revoked (a replayed code revokes both).
  const record = { applicationId: input.application.id, profileId: input.profileId, codeId: input.codeId ?? null, scope, createdAt: now };
  const rows: Prisma.AccessTokenCreateManyInput[] = [];
  if (input.accessToken) {
    const jti = randomUUID();
    result.accessToken = await signAccessToken({
      key, issuer, audience: input.application.clientId, subject, clientId: input.application.clientId,
      scope: input.scope, jti, expiresInSeconds: ACCESS_TOKEN_TTL_SECONDS, now,
    });
    rows.push({ jti, ...record, expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000) });
  }
  if (input.idToken) {
    const jti = randomUUID();
    result.idToken = await signIdToken({
      key, issuer, clientId: input.application.clientId, subject, nonce: input.nonce ?? undefined,
      accessToken: result.accessToken, jti, expiresInSeconds: ID_TOKEN_TTL_SECONDS, now,
    });
    rows.push({ jti, ...record, expiresAt: new Date(now.getTime() + ID_TOKEN_TTL_SECONDS * 1000) });
  }
  if (rows.length > 0) await (input.tx ?? db()).accessToken.createMany({ data: rows });
  return result;
}
