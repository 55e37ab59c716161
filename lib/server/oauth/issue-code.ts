import { db } from "@/lib/server/db/database";
import type { AuthorizeRequest } from "@/lib/oauth/authorize-request";
import { generateCode, hashSecret } from "@/lib/oauth/secret";
import { CODE_TTL_SECONDS, EXPIRED_ROW_RETENTION_SECONDS } from "./lifetimes";

/**
 * A new authorization code: 256 random bits, stored only as its SHA-256, valid 60 s, single use,
 * bound to the client, redirect URI, profile, scope, nonce and PKCE challenge (RFC 6749 §4.1.2,
 * §10.5; RFC 7636 §4.4). Returns the plain code, which exists only in the redirect.
 */
export async function issueCode(options: {
  application: { id: string };
  request: AuthorizeRequest;
  profileId: string;
  now?: Date;
}): Promise<string> {
  const now = options.now ?? new Date();
  const code = generateCode();
  const { request } = options;
  await db().authorizationCode.create({
    data: {
      codeHash: hashSecret(code),
      applicationId: options.application.id,
      profileId: options.profileId,
      redirectUri: request.redirectUri,
      scope: request.scope.join(" "),
      nonce: request.nonce ?? null,
      codeChallenge: request.codeChallenge ?? null,
      codeChallengeMethod: request.codeChallengeMethod ?? null,
      expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
      createdAt: now,
    },
  });
  await purgeExpired(now);
  return code;
}

/**
 * Housekeeping without a scheduler: codes and token records long past their expiry can no
 * longer be used or replayed into anything live, so each issuance deletes what has aged out
 * (an indexed range on expiresAt).
 */
async function purgeExpired(now: Date): Promise<void> {
  const before = new Date(now.getTime() - EXPIRED_ROW_RETENTION_SECONDS * 1000);
  await db().accessToken.deleteMany({ where: { expiresAt: { lt: before } } });
  await db().authorizationCode.deleteMany({ where: { expiresAt: { lt: before } } });
}
