// The statement user info sends on every call for a token whose answer it keeps (FRESH_SQL), and
// the parts RECORD_SQL shares with it (get-user-info.ts). Its own module so that the bench's floor
// of user info (bench/hot-routes/user-info-floor-server.ts) sends the very same statement.

// The token's row ($1: its jti) with its application, profile, person and institution.
export const TOKEN_FROM = `
  FROM "AccessToken" t
  JOIN "OAuthApplication" a ON a.id = t."applicationId"
  LEFT JOIN "Profile" pr ON pr.id = t."profileId"
  LEFT JOIN "Person" pe ON pe.id = pr."personId"
  LEFT JOIN "Institution" i ON i.id = pr."institutionId"
  LEFT JOIN "SharingRuleVersion" v ON v.id = 1
 WHERE t.jti = $1`;

// The stamp of everything an answer is made of: the row versions (xmin: a new one with every
// update, from the transaction that wrote it) of the application, profile, person and institution,
// and the sharing rules' version (a number the rule tables' triggers change in the same commit as
// any change to a rule row, a contract or the tree: migration 20261202090000_sharing_rule_version).
export const STAMP = `concat(a.xmin, '.', pr.xmin, '.', pe.xmin, '.', i.xmin, '.', v.version)`;

// The token's revocation and expiry at `now`, the call's time (sent as ISO text: the driver's own
// formatting of a Date, in local time by hand, costs more).
export const tokenState = (now: string) => `t."revokedAt" IS NOT NULL AS revoked, t."expiresAt" <= ${now}::timestamptz AS expired`;

/**
 * For a token with a kept answer: its state, and whether the answer still holds ($2: its stamp).
 * Primary-key lookups only, three small columns (the driver parses each column's description on
 * every call). About 65 µs of PostgreSQL's CPU against 85–100 for RECORD_SQL, whose rule sub-select
 * PostgreSQL sets up on every execution even where a CASE skips it.
 */
export const FRESH_SQL = `SELECT ${tokenState("$3")}, ${STAMP} = $2 AS fresh ${TOKEN_FROM}`;
