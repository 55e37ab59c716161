// The class of bench/morning, made in the bench's fresh database (demo seed) before the hub opens
// it, through the hub's own services where the hub has one:
// - every seeded student and teacher gets the bench's password (one hash made with the hub's
//   hashPassword, written to every row: verifying it costs what verifying each person's own would);
// - every class of the seed gets its sign-in cards (issueClassCards, as a manager prints them);
// - each seeded teacher gets a second profile, at the other school (createProfile), so they meet
//   the profile picker; they choose the first;
// - each school's LTI 1.0 demo placement gets a copy of its tool registered for LTI 1.3
//   (bench/lti13/tool.ts), placed at that school.
import { resetEnvCache } from "@/lib/env";
import { hashPassword } from "@/lib/server/crypto/password";
import { createDatabase, database, setDatabase } from "@/lib/server/db/database";
import type { TDatabaseEngine } from "../lib/hub";
import { addLti13Copy } from "../lti13/tool";

export const MORNING_PASSWORD = "bench-manha-senha-42";

export interface TMorningPerson {
  kind: "password" | "card" | "teacher";
  email: string;
  personId: string;
  /** The profile the path uses: the student's own, the teacher's first school's. */
  profileId: string;
  schoolId: string;
  /** Students: the card's token (GET /cracha/{token}). */
  cardToken?: string;
}

export interface TMorningClass {
  students: Array<Omit<TMorningPerson, "kind"> & { cardToken: string }>;
  teachers: Array<Omit<TMorningPerson, "kind">>;
  /** Per school: the LTI 1.0 demo placement and its LTI 1.3 copy. */
  placements: Record<string, { lti10: string; lti13: string }>;
  /** The LTI 1.3 copies' registrations, for the floor's login initiation (by placement). */
  lti13: Record<string, { toolId: string; toolTitle: string; clientId: string; deploymentId: string; loginUrl: string; targetLinkUri: string }>;
}

export async function setUpClass(env: Record<string, string>, engine: TDatabaseEngine): Promise<TMorningClass> {
  process.env.HUB_SECRET = env.HUB_SECRET;
  process.env.HUB_BASE_URL = env.HUB_BASE_URL;
  process.env.DEMO_TOOL = "1";
  resetEnvCache();
  const { issueClassCards } = await import("@/lib/server/cards/issue-class-cards");
  const { createProfile } = await import("@/lib/server/school-data/create-profile");
  setDatabase(createDatabase(engine === "postgres" ? { url: env.DATABASE_URL } : { dataDir: `${env.HUB_DATA_DIR}/pglite` }));
  const sql = database().sql;
  try {
    const [manager] = await sql.query<{ id: string }>(`SELECT id FROM "Person" WHERE email = 'gestor@demo.hub.br'`);
    const schools = await sql.query<{ id: string }>(`SELECT id FROM "Institution" WHERE kind = 'school' ORDER BY name`);
    const other = (schoolId: string) => schools.find((s) => s.id !== schoolId)!.id;

    // Cards, class by class, as a manager prints them.
    const classes = await sql.query<{ id: string; name: string; institutionId: string; institutionName: string; periodCode: string }>(
      `SELECT c.id, c.name, c."institutionId", i.name AS "institutionName", pe.code AS "periodCode"
         FROM "Class" c JOIN "Institution" i ON i.id = c."institutionId" JOIN "Period" pe ON pe.id = c."periodId" ORDER BY i.name, c.name`,
    );
    const tokens = new Map<string, string>();
    for (const cls of classes) {
      for (const card of await issueClassCards({ cls, actorPersonId: manager!.id })) tokens.set(card.profileId, card.url.split("/").at(-1)!);
    }
    const studentRows = await sql.query<{ personId: string; profileId: string; email: string; schoolId: string }>(
      `SELECT pe.id AS "personId", p.id AS "profileId", pe.email, p."institutionId" AS "schoolId"
         FROM "Profile" p JOIN "Person" pe ON pe.id = p."personId"
        WHERE p.role = 'aluno' AND pe.email IS NOT NULL ORDER BY pe.email`,
    );
    const students = studentRows.filter((s) => tokens.has(s.profileId)).map((s) => ({ ...s, cardToken: tokens.get(s.profileId)! }));

    // Teachers with one profile get a second, at the other school (the demo's Ana Souza has two already).
    const teacherRows = await sql.query<{ personId: string; profileId: string; email: string; schoolId: string; profiles: number }>(
      `SELECT pe.id AS "personId", p.id AS "profileId", pe.email, p."institutionId" AS "schoolId",
              (SELECT count(*)::int FROM "Profile" x WHERE x."personId" = pe.id) AS profiles
         FROM "Profile" p JOIN "Person" pe ON pe.id = p."personId"
        WHERE p.role = 'professor' AND pe.email IS NOT NULL ORDER BY pe.email`,
    );
    for (const t of teacherRows) if (t.profiles === 1) await createProfile({ personId: t.personId, institutionId: other(t.schoolId), role: "professor" });
    const teachers = teacherRows.map(({ profiles: _, ...t }) => t);

    const hash = await hashPassword(MORNING_PASSWORD);
    await sql.query(`UPDATE "Person" SET "passwordHash" = $1 WHERE id = ANY($2::uuid[])`, [hash, [...students, ...teachers].map((p) => p.personId)]);

    const placements: TMorningClass["placements"] = {};
    const lti13: TMorningClass["lti13"] = {};
    const demo = await sql.query<{ id: string; institutionId: string }>(
      `SELECT pl.id, pl."institutionId" FROM "Placement" pl JOIN "Tool" t ON t.id = pl."toolId" WHERE t."consumerKey" = 'demo-tool' AND pl.roles = '{}' ORDER BY pl."institutionId"`,
    );
    for (const [i, p] of demo.entries()) {
      const copy = await addLti13Copy(database(), env.HUB_BASE_URL!, p.id, `-13-${i}`);
      placements[p.institutionId] = { lti10: p.id, lti13: copy };
      const [registration] = await sql.query<TMorningClass["lti13"][string]>(
        `SELECT t.id AS "toolId", t.title AS "toolTitle", l."clientId", l."deploymentId", l."loginUrl", l."targetLinkUri"
           FROM "Placement" pl JOIN "Tool" t ON t.id = pl."toolId" JOIN "ToolLti13" l ON l."toolId" = t.id WHERE pl.id = $1`,
        [copy],
      );
      lti13[copy] = registration!;
    }
    if (students.length === 0 || teachers.length === 0 || Object.keys(placements).length === 0) throw new Error("The demo seed has no students, teachers or placements");
    return { students, teachers, placements, lti13 };
  } finally {
    await database().close();
    setDatabase(undefined);
  }
}
