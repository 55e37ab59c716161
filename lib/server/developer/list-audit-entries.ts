import { db } from "@/lib/server/db/database";
import type { Prisma } from "@/lib/generated/prisma/client";

export interface TAuditListEntry {
  id: string;
  createdAt: Date;
  action: string;
  actorName: string | null;
  edtechName: string;
  targetType: string;
  targetId: string | null;
  details: Prisma.JsonValue;
}

export interface ListAuditEntriesOptions {
  personId: string;
  limit?: number;
}

/** The latest audit rows of the person's edtechs (who did what, when), newest first. */
export async function listAuditEntries({ personId, limit = 100 }: ListAuditEntriesOptions): Promise<TAuditListEntry[]> {
  const edtechs = await db().edtech.findMany({ where: { members: { some: { personId } } }, select: { id: true, name: true } });
  if (edtechs.length === 0) return [];
  const names = new Map(edtechs.map((e) => [e.id, e.name]));
  const rows = await db().auditLog.findMany({
    where: { edtechId: { in: edtechs.map((e) => e.id) } },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(limit, 1), 500),
  });
  const actorIds = [...new Set(rows.map((r) => r.actorPersonId).filter((id): id is string => id !== null))];
  const actors = new Map((await db().person.findMany({ where: { id: { in: actorIds } }, select: { id: true, name: true } })).map((p) => [p.id, p.name]));
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    action: r.action,
    actorName: r.actorPersonId ? (actors.get(r.actorPersonId) ?? null) : null,
    edtechName: names.get(r.edtechId ?? "") ?? "",
    targetType: r.targetType,
    targetId: r.targetId,
    details: r.details,
  }));
}
