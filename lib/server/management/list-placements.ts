import { db } from "@/lib/server/db/database";
import type { Role } from "@/lib/generated/prisma/client";
import { listAncestors } from "@/lib/server/institution-tree/list-ancestors";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TPlacementRow {
  id: string;
  toolId: string;
  toolTitle: string;
  toolStatus: "active" | "withdrawn";
  edtechName: string;
  title: string | null;
  roles: Role[];
  classId: string | null;
  className: string | null;
  periodCode: string | null;
  customParams: Record<string, string>;
  createdAt: Date;
}

export interface TPlacements {
  placements: TPlacementRow[];
  /** Active tools of the edtechs with a contract here or above: what may be placed. */
  tools: { id: string; title: string; edtechName: string }[];
  classes: { id: string; name: string; periodCode: string }[];
}

/** An institution's tool placements (each id is the LTI resource_link_id) and what the form offers. */
export async function listPlacements(options: { scope: TManagerScope; institutionId: string }): Promise<TPlacements> {
  const institution = requireInReach(options);
  const chain = await listAncestors({ institutionId: institution.id });
  const links = await db().edtechLink.findMany({ where: { institutionId: { in: chain.map((c) => c.id) } }, select: { edtechId: true } });
  const [placements, tools, classes] = await Promise.all([
    db().placement.findMany({
      where: { institutionId: institution.id },
      include: { tool: { include: { edtech: { select: { name: true } } } }, class: { include: { period: { select: { code: true } } } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    db().tool.findMany({
      where: { status: "active", edtechId: { in: [...new Set(links.map((l) => l.edtechId))] } },
      select: { id: true, title: true, edtech: { select: { name: true } } },
      orderBy: { title: "asc" },
    }),
    db().class.findMany({
      where: { institutionId: institution.id },
      select: { id: true, name: true, period: { select: { code: true } } },
      orderBy: [{ period: { code: "desc" } }, { name: "asc" }],
      take: 500,
    }),
  ]);
  return {
    placements: placements.map((p) => ({
      id: p.id,
      toolId: p.toolId,
      toolTitle: p.tool.title,
      toolStatus: p.tool.status,
      edtechName: p.tool.edtech.name,
      title: p.title,
      roles: p.roles,
      classId: p.classId,
      className: p.class?.name ?? null,
      periodCode: p.class?.period.code ?? null,
      customParams: (p.customParams ?? {}) as Record<string, string>,
      createdAt: p.createdAt,
    })),
    tools: tools.map((t) => ({ id: t.id, title: t.title, edtechName: t.edtech.name })),
    classes: classes.map((c) => ({ id: c.id, name: c.name, periodCode: c.period.code })),
  };
}
