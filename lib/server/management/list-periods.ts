import { db } from "@/lib/server/db/database";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TPeriodRow {
  id: string;
  code: string;
  name: string;
  startsOn: string;
  endsOn: string;
  classCount: number;
}

/** Periods of one institution, newest first (a school has a few dozen at most: no paging). */
export async function listPeriods(options: { scope: TManagerScope; institutionId: string }): Promise<TPeriodRow[]> {
  const institution = requireInReach(options);
  const rows = await db().period.findMany({
    where: { institutionId: institution.id },
    include: { _count: { select: { classes: true } } },
    orderBy: [{ code: "desc" }],
  });
  return rows.map((p) => ({
    id: p.id,
    code: p.code,
    name: p.name,
    startsOn: p.startsOn.toISOString().slice(0, 10),
    endsOn: p.endsOn.toISOString().slice(0, 10),
    classCount: p._count.classes,
  }));
}
