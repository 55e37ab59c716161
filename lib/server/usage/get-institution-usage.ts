import { env } from "@/lib/env";
import { fromZodError } from "@/lib/errors";
import { subtreeOf } from "@/lib/server/institution-tree/subtree-of";
import { dayRange } from "@/lib/server/management/day-range";
import { requireInReach } from "@/lib/server/management/require-in-reach";
import type { TManagerScope } from "@/lib/server/management/resolve-manager-scope";
import type { TUsageRow } from "@/lib/usage/usage";
import { usagePeriodSchema } from "@/lib/validations/usage";
import { countUsage } from "./count-usage";

export interface TInstitutionUsage {
  institution: { id: string; name: string };
  from: string;
  to: string;
  rows: TUsageRow[];
}

/** Today in the hub's time zone, AAAA-MM-DD. */
export function hubToday(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: env().HUB_TIME_ZONE }).format(now);
}

/**
 * The usage counts of an institution and every institution below it, for a manager who reaches
 * it (404 otherwise), over the days `de`..`ate` of the query (default: the last 30 days).
 */
export async function getInstitutionUsage(options: { scope: TManagerScope; institutionId: string; query: Record<string, unknown> }): Promise<TInstitutionUsage> {
  const institution = requireInReach({ scope: options.scope, institutionId: options.institutionId });
  const parsed = usagePeriodSchema(hubToday(), { from: "de", to: "ate" }).safeParse(options.query);
  if (!parsed.success) throw fromZodError(parsed.error);
  const { from, to } = parsed.data;
  const range = dayRange({ from, to });
  const institutionIds = subtreeOf({ institutions: options.scope.institutions, rootId: institution.id }).map((i) => i.id);
  const rows = await countUsage({ institutionIds, from: range.from!, until: range.until! });
  return { institution: { id: institution.id, name: institution.name }, from, to, rows };
}
