// "Meus dados" (issue #14, point 6): the recent reads of a person's data by partners, from the
// institutions' access log (DataAccessLog). Two kinds of row concern her:
//   - rows naming one of her profiles (user info, id token, LTI launch);
//   - Data API and summary reads that succeeded and carried personal attributes, of an institution
//     where she has a profile or of one of its ancestors (a network read covers its subtree), made
//     since that profile exists. The log does not say which people a read returned, so such a read
//     is listed as one that could include her.
import { db } from "@/lib/server/db/database";
import type { AccessChannel, Prisma } from "@/lib/generated/prisma/client";
import { listAncestors } from "@/lib/server/institution-tree/list-ancestors";

export interface TReadProfile {
  id: string;
  institutionId: string;
  createdAt: Date;
}

export interface TPersonRead {
  id: string;
  at: Date;
  channel: AccessChannel;
  partner: { kind: "application" | "tool"; name: string; edtechName: string | null; deleted: boolean };
  /** The institution whose log holds the row (the profile's, or the network read). */
  institutionName: string;
  /** Names of the personal attributes that left the hub (never values). */
  attributes: string[];
}

export const DEFAULT_READ_LIMIT = 50;

/** Newest first, at most `limit` rows (DEFAULT_READ_LIMIT). */
export async function listReadsAboutProfiles(options: { profiles: readonly TReadProfile[]; limit?: number }): Promise<TPersonRead[]> {
  if (options.profiles.length === 0) return [];
  const chains = await Promise.all(options.profiles.map((p) => listAncestors({ institutionId: p.institutionId })));
  const bulkReads: Prisma.DataAccessLogWhereInput[] = options.profiles.map((p, i) => ({
    channel: { in: ["data_api", "summary"] },
    status: 200,
    NOT: { attributes: { isEmpty: true } },
    institutionId: { in: chains[i]!.map((c) => c.id) },
    createdAt: { gte: p.createdAt },
  }));
  const rows = await db().dataAccessLog.findMany({
    where: { OR: [{ profileId: { in: options.profiles.map((p) => p.id) } }, ...bulkReads] },
    select: {
      id: true,
      createdAt: true,
      channel: true,
      applicationId: true,
      applicationName: true,
      toolId: true,
      toolName: true,
      attributes: true,
      institution: { select: { name: true } },
      application: { select: { name: true, edtech: { select: { name: true } } } },
      tool: { select: { title: true, edtech: { select: { name: true } } } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit ?? DEFAULT_READ_LIMIT,
  });
  return rows.map((r) => {
    const isTool = r.toolId !== null || (r.toolName !== null && r.applicationName === null);
    const partner = isTool
      ? { kind: "tool" as const, name: r.tool?.title ?? r.toolName ?? "", edtechName: r.tool?.edtech.name ?? null, deleted: r.toolId === null }
      : { kind: "application" as const, name: r.application?.name ?? r.applicationName ?? "", edtechName: r.application?.edtech.name ?? null, deleted: r.applicationId === null };
    return { id: r.id, at: r.createdAt, channel: r.channel, partner, institutionName: r.institution.name, attributes: r.attributes };
  });
}
