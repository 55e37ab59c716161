import { db } from "@/lib/server/db/database";
import { listAncestors } from "@/lib/server/institution-tree/list-ancestors";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TEdtechLinkRow {
  linkId: string;
  edtechId: string;
  edtechName: string;
  siteUrl: string | null;
  /** Where the contract was made: this institution or an ancestor (inherited). */
  linkedAt: { id: string; name: string };
  inherited: boolean;
  /** Linked here and also at an ancestor: removing this link changes nothing. */
  alsoInherited: boolean;
  linkedOn: Date;
}

export interface TEdtechLinks {
  links: TEdtechLinkRow[];
  /** Edtechs this institution could link (not linked here or above). */
  available: { id: string; name: string }[];
}

/** The edtech contracts that cover one institution: its own and those inherited from ancestors. */
export async function listEdtechLinks(options: { scope: TManagerScope; institutionId: string }): Promise<TEdtechLinks> {
  const institution = requireInReach(options);
  const chain = await listAncestors({ institutionId: institution.id });
  const names = new Map(chain.map((c) => [c.id, c.name]));
  const rows = await db().edtechLink.findMany({
    where: { institutionId: { in: chain.map((c) => c.id) } },
    include: { edtech: { select: { name: true, siteUrl: true } } },
  });
  const depth = (id: string) => chain.findIndex((c) => c.id === id);
  const links = rows
    .map((r) => ({
      linkId: r.id,
      edtechId: r.edtechId,
      edtechName: r.edtech.name,
      siteUrl: r.edtech.siteUrl,
      linkedAt: { id: r.institutionId, name: names.get(r.institutionId) ?? "" },
      inherited: r.institutionId !== institution.id,
      alsoInherited: r.institutionId === institution.id && rows.some((o) => o.edtechId === r.edtechId && o.institutionId !== institution.id),
      linkedOn: r.createdAt,
    }))
    .sort((a, b) => a.edtechName.localeCompare(b.edtechName, "pt-BR") || depth(a.linkedAt.id) - depth(b.linkedAt.id));
  const linked = new Set(rows.map((r) => r.edtechId));
  const available = (await db().edtech.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } })).filter((e) => !linked.has(e.id));
  return { links, available };
}
