// What a benchmark needs from the hub's seeded database, read before the server opens it, and the
// session cookie of a signed-in person with a chosen profile (sealed as the sign-in form seals it).
import { createHash } from "node:crypto";
import type { TDatabaseEngine } from "./hub";

/** The demo application's credentials and the PKCE verifier the benches' codes are bound to. */
export const DEMO_CLIENT = { id: "demo-app", secret: "demo-secret" };
export const BENCH_VERIFIER = "bench-verifier-0123456789abcdefghijklmnopqrstuvwxyz0123";
export const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };

/**
 * `n` authorization codes for the demo application, from the hub's own authorization endpoint for
 * the signed-in person of `cookie` (8 requests at a time), bound to BENCH_VERIFIER. `base` is the
 * hub the demo was seeded for (its redirect URI); `origin` the server asked, `base` by default;
 * `extra`, more parameters of the request (a login_hint).
 */
export async function mintHubCodes(base: string, cookie: string, n: number, origin: string = base, extra: Record<string, string> = {}): Promise<string[]> {
  const challenge = createHash("sha256").update(BENCH_VERIFIER).digest("base64url");
  const codes: string[] = [];
  const one = async (i: number) => {
    const query = new URLSearchParams({
      response_type: "code", client_id: DEMO_CLIENT.id, redirect_uri: `${base}/demo-app/callback`, scope: "openid user.info",
      state: `s${i}`, nonce: `n${i}`, code_challenge: challenge, code_challenge_method: "S256", ...extra,
    });
    const res = await fetch(`${origin}/lti/v1/oauth2/authorize?${query}`, { headers: { cookie }, redirect: "manual" });
    const code = new URL(res.headers.get("location") ?? "", base).searchParams.get("code");
    if (!code) throw new Error(`authorize answered ${res.status} without a code (${res.headers.get("location")})`);
    codes.push(code);
  };
  for (let i = 0; i < n; i += 8) await Promise.all(Array.from({ length: Math.min(8, n - i) }, (_, k) => one(i + k)));
  return codes;
}

/** The token request's form body for one of those codes (client_secret_post unless `basic`). */
export function hubTokenBody(base: string, code: string, auth: "post" | "basic" = "post"): string {
  return new URLSearchParams({
    grant_type: "authorization_code", code, redirect_uri: `${base}/demo-app/callback`, code_verifier: BENCH_VERIFIER,
    ...(auth === "post" ? { client_id: DEMO_CLIENT.id, client_secret: DEMO_CLIENT.secret } : {}),
  }).toString();
}

/** An access token (scope openid user.info) for the person of `cookie`; `base` and `origin` as for mintHubCodes. */
export async function hubAccessToken(base: string, cookie: string, origin: string = base): Promise<string> {
  const [code] = await mintHubCodes(base, cookie, 1, origin);
  const res = await fetch(`${origin}/lti/v1/oauth2/authorize`, { method: "POST", headers: FORM_HEADERS, body: hubTokenBody(base, code!) });
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface TBenchPeople {
  /** The demo student: one profile, at the demo school. */
  student: { personId: string; profileId: string };
  /** A placement the student may launch. */
  placementId: string;
}

export async function readBenchPeople(env: Record<string, string>, engine: TDatabaseEngine): Promise<TBenchPeople> {
  const { createDatabase } = await import("@/lib/server/db/database");
  const db = createDatabase(engine === "postgres" ? { url: env.DATABASE_URL } : { dataDir: `${env.HUB_DATA_DIR}/pglite` });
  try {
    const [student] = await db.sql.query<{ personId: string; profileId: string }>(
      `SELECT p.id AS "personId", pr.id AS "profileId" FROM "Person" p JOIN "Profile" pr ON pr."personId" = p.id WHERE p.email = 'aluno@demo.hub.br'`,
    );
    const [placement] = await db.sql.query<{ id: string }>(
      `SELECT pl.id FROM "Placement" pl JOIN "Tool" t ON t.id = pl."toolId" WHERE pl."institutionId" = (SELECT "institutionId" FROM "Profile" WHERE id = $1) AND pl.roles = '{}' ORDER BY pl.title LIMIT 1`,
      [student?.profileId],
    );
    if (!student || !placement) throw new Error("The demo seed has no student or no placement for them");
    return { student, placementId: placement.id };
  } finally {
    await db.close();
  }
}

/** The `Cookie` header of a session for `person` with `profileId` chosen. */
export async function sessionCookieHeader(env: Record<string, string>, person: { personId: string; profileId: string }): Promise<string> {
  process.env.HUB_SECRET = env.HUB_SECRET;
  process.env.HUB_BASE_URL = env.HUB_BASE_URL;
  const { resetEnvCache } = await import("@/lib/env");
  resetEnvCache();
  const { sealSession, sessionCookie } = await import("@/lib/server/auth/session-cookie");
  const value = await sealSession({ sub: person.personId, profileId: person.profileId });
  return `${sessionCookie().name}=${value}`;
}
