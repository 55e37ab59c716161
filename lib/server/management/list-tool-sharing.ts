import { db } from "@/lib/db";
import { listAncestors } from "./list-ancestors";
import { toRules, type TAttributeRules } from "./list-application-access";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TToolSharingRow {
  toolId: string;
  toolTitle: string;
  edtechId: string;
  edtechName: string;
  /** Whether the tool is placed at this institution (its people can open it here). */
  placedHere: boolean;
  /** This institution's own rule, or null when it has none. */
  own: TAttributeRules | null;
  /** The nearest ancestor's rule, which applies when there is no own one. */
  inherited: { institutionId: string; institutionName: string; rules: TAttributeRules } | null;
  ownUpdatedAt: Date | null;
}

/**
 * The tools whose launches an institution governs: those of the edtechs with a contract here or
 * above (as listApplicationAccess for applications). For each, its own rule and the inherited one.
 */
export async function listToolSharing(options: { scope: TManagerScope; institutionId: string }): Promise<TToolSharingRow[]> {
  const institution = requireInReach(options);
  const chain = await listAncestors({ institutionId: institution.id });
  const chainIds = chain.map((c) => c.id);
  const links = await db().edtechLink.findMany({ where: { institutionId: { in: chainIds } }, select: { edtechId: true } });
  const tools = await db().tool.findMany({
    where: { edtechId: { in: [...new Set(links.map((l) => l.edtechId))] } },
    select: {
      id: true,
      title: true,
      edtechId: true,
      edtech: { select: { name: true } },
      toolSharing: { where: { institutionId: { in: chainIds } } },
      placements: { where: { institutionId: institution.id }, select: { id: true }, take: 1 },
    },
    orderBy: [{ edtech: { name: "asc" } }, { title: "asc" }],
  });
  return tools.map((tool) => {
    const own = tool.toolSharing.find((s) => s.institutionId === institution.id) ?? null;
    const nearest = chain.slice(1).map((c) => ({ c, row: tool.toolSharing.find((s) => s.institutionId === c.id) })).find((x) => x.row);
    return {
      toolId: tool.id,
      toolTitle: tool.title,
      edtechId: tool.edtechId,
      edtechName: tool.edtech.name,
      placedHere: tool.placements.length > 0,
      own: own ? toRules(own.allowedAttributes, own.anonymizedAttributes) : null,
      inherited: nearest?.row
        ? { institutionId: nearest.c.id, institutionName: nearest.c.name, rules: toRules(nearest.row.allowedAttributes, nearest.row.anonymizedAttributes) }
        : null,
      ownUpdatedAt: own?.updatedAt ?? null,
    };
  });
}
