import { randomUUID } from "node:crypto";
import { database } from "@/lib/server/db/database";
import type { AuthorizeRequest } from "@/lib/oauth/authorize-request";
import { generateCode, hashSecret } from "@/lib/oauth/secret";
import { atMostEvery } from "@/lib/server/housekeeping/at-most-every";
import { CODE_TTL_SECONDS, EXPIRED_ROW_RETENTION_SECONDS } from "./lifetimes";

// One prepared statement, not the ORM: a sign-in of a partner application issues one code per
// person every morning (docs/performance.md, "The student's morning").
const INSERT_CODE_SQL = `INSERT INTO "AuthorizationCode"
  (id, "codeHash", "applicationId", "profileId", "redirectUri", scope, nonce, "codeChallenge", "codeChallengeMethod", "expiresAt", "createdAt")
  VALUES ($1::uuid, $2, $3::uuid, $4::uuid, $5, $6, $7, $8, $9, $10::timestamptz, $11::timestamptz)`;

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
  await database().sql.query(
    INSERT_CODE_SQL,
    [
      randomUUID(),
      hashSecret(code),
      options.application.id,
      options.profileId,
      request.redirectUri,
      request.scope.join(" "),
      request.nonce ?? null,
      request.codeChallenge ?? null,
      request.codeChallengeMethod ?? null,
      new Date(now.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
      now.toISOString(),
    ],
    { prepared: true },
  );
  await purgeExpired();
  return code;
}

/**
 * Codes and token records long past their expiry can no longer be used or replayed into anything
 * live: each process deletes what has aged out (an indexed range on expiresAt) at most once a
 * minute, from the issuance that comes first (it did on every issuance: two more statements on
 * every sign-in of a partner application).
 */
const purgeExpired = atMostEvery(60_000, async () => {
  const before = new Date(Date.now() - EXPIRED_ROW_RETENTION_SECONDS * 1000).toISOString();
  await database().sql.query(`DELETE FROM "AccessToken" WHERE "expiresAt" < $1::timestamptz`, [before]);
  await database().sql.query(`DELETE FROM "AuthorizationCode" WHERE "expiresAt" < $1::timestamptz`, [before]);
});
