// The floor of a durable, audited user info (bench/hot-routes/user-info-floor.ts): node:http and
// `pg`, no framework. For each request it reads the presented token's row in one prepared
// statement (what user info cannot skip without a cache: revocation lives in the database) and,
// with FLOOR_LOG=1, queues the request's access-log row, written as the hub writes them (the same
// statement, one per 5 ms). With FLOOR_STAMP=1 it reads the token's row with the hub's own
// statement instead (FRESH_SQL: the row, and whether the application, profile, person,
// institution and sharing rules are as when the answer was made), which user info needs to keep
// its promise that a changed rule holds on the next call. It answers FLOOR_BODY, the hub's own
// answer for that token.
import http from "node:http";
import pg from "pg";
import { FRESH_SQL, STAMP, TOKEN_FROM } from "@/lib/server/oauth/user-info-sql";
import { accessLogWriter } from "./floor";

const { DATABASE_URL, PORT, FLOOR_JTI, FLOOR_BODY } = process.env;
if (!DATABASE_URL || !PORT || !FLOOR_JTI || !FLOOR_BODY) throw new Error("DATABASE_URL, PORT, FLOOR_JTI and FLOOR_BODY are needed");
const withLog = process.env.FLOOR_LOG === "1";
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const attributes = Object.keys((JSON.parse(FLOOR_BODY) as { usuario: Record<string, unknown> }).usuario);
const HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache", "Access-Control-Allow-Origin": "*" };

interface TTokenRow { applicationId: string; profileId: string; revokedAt: Date | null; expiresAt: Date }
const TOKEN_SQL = `SELECT "applicationId", "profileId", "revokedAt", "expiresAt" FROM "AccessToken" WHERE jti = $1`;

const logAccess = accessLogWriter(pool);
// The token's stamp now, read once at start as the hub reads it when it makes an answer, and who the token is for.
const stamped = process.env.FLOOR_STAMP === "1"
  ? (await pool.query<{ stamp: string; applicationId: string; profileId: string }>(`SELECT ${STAMP} AS stamp, t."applicationId", t."profileId" ${TOKEN_FROM}`, [FLOOR_JTI])).rows[0]!
  : null;

async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (!req.headers.authorization?.startsWith("Bearer ")) {
    res.writeHead(401, HEADERS).end();
    return;
  }
  if (stamped) {
    const { rows: [state] } = await pool.query<{ revoked: boolean; expired: boolean; fresh: boolean }>({ name: "fresh", text: FRESH_SQL, values: [FLOOR_JTI, stamped.stamp, new Date().toISOString()] });
    if (!state || state.revoked || state.expired || !state.fresh) {
      res.writeHead(401, HEADERS).end();
      return;
    }
    if (withLog) logAccess({ channel: "user_info", applicationId: stamped.applicationId, toolId: null, institutionId: null, profileId: stamped.profileId, attributes, filters: {}, status: 200, eventCount: 0, createdAt: new Date() });
    res.writeHead(200, HEADERS).end(FLOOR_BODY);
    return;
  }
  const { rows: [row] } = await pool.query<TTokenRow>({ name: "token", text: TOKEN_SQL, values: [FLOOR_JTI] });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) {
    res.writeHead(401, HEADERS).end();
    return;
  }
  if (withLog) {
    logAccess({ channel: "user_info", applicationId: row.applicationId, toolId: null, institutionId: null, profileId: row.profileId, attributes, filters: {}, status: 200, eventCount: 0, createdAt: new Date() });
  }
  res.writeHead(200, HEADERS).end(FLOOR_BODY);
}

http.createServer((req, res) => void answer(req, res).catch(() => res.writeHead(500).end())).listen(Number(PORT));
