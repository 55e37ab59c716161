// What a benchmark needs from the hub's seeded database, read before the server opens it, and the
// session cookie of a signed-in person with a chosen profile (sealed as the sign-in form seals it).
import type { TDatabaseEngine } from "./hub";

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
