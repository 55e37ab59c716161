import { database } from "@/lib/server/db/database";
import type { TActingProfile } from "./acting-profile";

export interface FindUsablePlacementIdsOptions {
  profile: TActingProfile;
  /** Narrow to one placement (the launch) or one tool (the detail view). */
  placementId?: string;
  toolId?: string;
}

/**
 * The condition itself, over `p` (Placement) and `t` (its Tool), with SQL expressions for the
 * acting profile's institution, role and id: findUsablePlacementIds below, and the launch's own
 * one-round-trip statement (build-launch.ts). Fixed strings only, never input.
 */
export function usablePlacementCondition(refs: { institution: string; role: string; profile: string }): string {
  return `p."institutionId" = ${refs.institution}
        AND t.status = 'active'
        AND (coalesce(cardinality(p.roles), 0) = 0 OR ${refs.role} = ANY (p.roles))
        AND (p."classId" IS NULL
             OR EXISTS (SELECT 1 FROM "ClassStudent" cs WHERE cs."classId" = p."classId" AND cs."studentId" = ${refs.profile})
             OR EXISTS (SELECT 1 FROM "SubjectTeacher" st WHERE st."classId" = p."classId" AND st."teacherId" = ${refs.profile}))`;
}

/** Placements (`p`) with their tool (`t`) and, for a class placement, its class (`c`; NULLs otherwise): what GALLERY_ITEM_COLUMNS reads. */
export const PLACEMENT_FROM = `"Placement" p JOIN "Tool" t ON t.id = p."toolId" LEFT JOIN "Class" c ON c.id = p."classId"`;

/**
 * The one definition of "this profile may open this placement", shared by the gallery and the
 * launch so they can never disagree: the profile's own institution (placements are not inherited
 * by child schools), an active tool, no role restriction or the profile's role listed, and for a
 * class placement, membership of the class (enrolled student or assigned teacher).
 *
 * `columns` over `p` (Placement), `t` (its Tool) and `c` (its Class, or NULLs): the ids, or what
 * a gallery card shows (GALLERY_ITEM_COLUMNS), in one round trip. Oldest placement first.
 *
 * Raw SQL because the embedded engine's Prisma adapter cannot bind an enum-array filter
 * (`roles: { has }` fails with "malformed array literal"); ids must be UUIDs (callers check).
 */
export function findUsablePlacements<T>({ profile, placementId, toolId }: FindUsablePlacementIdsOptions, columns: string): Promise<T[]> {
  return database().sql.query<T>(
    `SELECT ${columns}
       FROM ${PLACEMENT_FROM}
      WHERE ${usablePlacementCondition({ institution: "$1::uuid", role: `$2::"Role"`, profile: "$3::uuid" })}
        AND ($4::uuid IS NULL OR p.id = $4::uuid)
        AND ($5::uuid IS NULL OR p."toolId" = $5::uuid)
      ORDER BY p."createdAt", p.id
      LIMIT 500`,
    [profile.institutionId, profile.role, profile.id, placementId ?? null, toolId ?? null],
    { prepared: true },
  );
}

/** The ids of the placements the profile may open (findUsablePlacements). */
export async function findUsablePlacementIds(options: FindUsablePlacementIdsOptions): Promise<string[]> {
  return (await findUsablePlacements<{ id: string }>(options, "p.id")).map((r) => r.id);
}
