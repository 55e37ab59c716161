// The floor of a durable token exchange (bench/hot-routes/token-floor.ts): node:http and `pg`, no
// framework, answering the hub's own token requests for the hub's codes. What it keeps of the
// hub's job is what a durable exchange cannot skip, with the hub's own statements and signing
// functions: the code read from the database, then claimed once with the two tokens' rows recorded
// (the statement sent before the signatures start, as the hub does); an RS256 access token and an
// RS256 id token bound by at_hash; PKCE and the redirect URI checked; the access log's row for the
// id token. Left out: pairwise subjects, the client read from the database (its secret is compared
// with FLOOR_CLIENT_SECRET), the replay revocation, the request id and log line, every error's detail.
import { randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { generateSigningKey, signAccessToken, signIdToken } from "@/lib/oauth/jwt";
import { verifyPkce } from "@/lib/oauth/pkce";
import { hashSecret, safeEqual } from "@/lib/oauth/secret";
import { CLAIM_AND_RECORD_SQL, CODE_ROW_SQL, type TCodeRow } from "@/lib/server/oauth/exchange-code";
import { signWhileWriting, type TTokenRow } from "@/lib/server/oauth/issue-tokens";
import { accessLogWriter } from "./floor";

const { DATABASE_URL, PORT, FLOOR_ISSUER, FLOOR_CLIENT_ID, FLOOR_CLIENT_SECRET } = process.env;
if (!DATABASE_URL || !PORT || !FLOOR_ISSUER || !FLOOR_CLIENT_ID || !FLOOR_CLIENT_SECRET) {
  throw new Error("DATABASE_URL, PORT, FLOOR_ISSUER, FLOOR_CLIENT_ID and FLOOR_CLIENT_SECRET are needed");
}
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const key = await generateSigningKey();
const HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache" };
const TTL_SECONDS = 3600;

const logAccess = accessLogWriter(pool);

function refuse(res: http.ServerResponse, status: number, error: string): void {
  res.writeHead(status, HEADERS).end(JSON.stringify({ error }));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function exchange(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const form = new URLSearchParams(await readBody(req));
  if (form.get("grant_type") !== "authorization_code") return refuse(res, 400, "unsupported_grant_type");
  if (form.get("client_id") !== FLOOR_CLIENT_ID || !safeEqual(form.get("client_secret") ?? "", FLOOR_CLIENT_SECRET!)) return refuse(res, 401, "invalid_client");
  const { rows: [code] } = await pool.query<TCodeRow>({ name: "code", text: CODE_ROW_SQL, values: [hashSecret(form.get("code") ?? "")] });
  const verifier = form.get("code_verifier") ?? "";
  if (
    !code || code.expiresAt.getTime() <= Date.now() || code.redirectUri !== form.get("redirect_uri") ||
    !code.codeChallenge || !verifyPkce(verifier, code.codeChallenge, "S256")
  ) return refuse(res, 400, "invalid_grant");
  const now = new Date();
  const accessJti = randomUUID();
  const idJti = randomUUID();
  const row = { applicationId: code.applicationId, profileId: code.profileId, codeId: code.id, scope: code.scope, createdAt: now, expiresAt: new Date(now.getTime() + TTL_SECONDS * 1000) };
  const rows: TTokenRow[] = [{ jti: accessJti, ...row }, { jti: idJti, ...row }];
  const base = { key, issuer: FLOOR_ISSUER!, subject: code.profileId, expiresInSeconds: TTL_SECONDS, now };
  const sign = async () => {
    const accessToken = await signAccessToken({ ...base, audience: FLOOR_CLIENT_ID!, clientId: FLOOR_CLIENT_ID!, scope: code.scope.split(" "), jti: accessJti });
    return { accessToken, idToken: await signIdToken({ ...base, clientId: FLOOR_CLIENT_ID!, nonce: code.nonce ?? undefined, accessToken, jti: idJti }) };
  };
  // The statement is on its way before the signatures hold this thread, as in the hub.
  const [{ accessToken, idToken }, recorded] = await signWhileWriting(
    sign,
    pool.query({ name: "claim", text: CLAIM_AND_RECORD_SQL, values: [code.id, now, JSON.stringify(rows)] }),
  );
  if (recorded.rows.length === 0) return refuse(res, 400, "invalid_grant");
  logAccess({ channel: "id_token", applicationId: code.applicationId, toolId: null, institutionId: null, profileId: code.profileId, attributes: [], filters: {}, status: 200, eventCount: 0, createdAt: now });
  res.writeHead(200, HEADERS).end(JSON.stringify({ access_token: accessToken, token_type: "Bearer", expires_in: TTL_SECONDS, scope: code.scope, id_token: idToken }));
}

http.createServer((req, res) => void exchange(req, res).catch(() => res.writeHead(500).end())).listen(Number(PORT));
