import { database } from "@/lib/server/db/database";
import { DEFAULT_WINDOW_SECONDS } from "@/lib/lti/verify-launch";
import { atMostEvery } from "@/lib/server/housekeeping/at-most-every";
import { pruneNonces } from "./prune-nonces";

/**
 * A nonce is only useful while its timestamp is inside the ±window: a launch accepted at
 * insertion time t has a timestamp ≤ t + window, so keeping entries 2 × window after insertion
 * outlives every replay the verifier would otherwise accept.
 */
export const NONCE_RETENTION_SECONDS = 2 * DEFAULT_WINDOW_SECONDS;
// Per process: several instances each prune at most once a minute, and any of them is enough.
const pruneNow = atMostEvery(60_000, () => pruneNonces({ olderThanSeconds: NONCE_RETENTION_SECONDS }));

export interface RememberNonceOptions {
  consumerKey: string;
  nonce: string;
}

/**
 * Records (consumer key, nonce) and says whether it was new. One INSERT … ON CONFLICT DO NOTHING:
 * two instances receiving the same launch at once cannot both see it as new.
 */
export async function rememberNonce({ consumerKey, nonce }: RememberNonceOptions): Promise<boolean> {
  const rows = await database().sql.query<{ inserted: number }>(
    `INSERT INTO "LtiNonce" ("consumerKey", "nonce", "createdAt") VALUES ($1, $2, now())
     ON CONFLICT ("consumerKey", "nonce") DO NOTHING RETURNING 1 AS inserted`,
    [consumerKey, nonce],
  );
  await pruneNow();
  return rows.length === 1;
}
