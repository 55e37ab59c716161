import { db } from "@/lib/server/db/database";
import type { Prisma } from "@/lib/generated/prisma/client";
import { PAGE_SIZE, type TAccessChannel, type TPartnerFilter } from "@/lib/validations/management";
import { dayRange } from "./day-range";
import { requireInReach } from "./require-in-reach";
import { subtreeOf } from "@/lib/server/institution-tree/subtree-of";
import type { TManagerScope } from "./resolve-manager-scope";
import { toPage, type TPage } from "./to-page";

export interface TDataAccessPartner {
  /** The application's or tool's id; null for an application deleted since. */
  id: string | null;
  kind: "application" | "tool";
  /** The current name, or the name kept in the log once the partner is deleted. */
  name: string;
  /** The partner no longer exists: the log keeps its rows and its name. */
  deleted: boolean;
}

export interface TDataAccessRow {
  id: string;
  at: Date;
  channel: TAccessChannel;
  partner: TDataAccessPartner;
  /** The partner's edtech, while the partner exists. */
  edtechName: string | null;
  institutionId: string;
  institutionName: string;
  /** The person concerned (user info, id token, launch), while the profile exists. */
  person: { profileId: string; name: string } | null;
  /** Names of the personal attributes that left the hub (never values). */
  attributes: string[];
  filters: Record<string, string>;
  status: number;
  eventCount: number;
}

function partnerWhere(partner: TPartnerFilter): Prisma.DataAccessLogWhereInput {
  if (partner.kind === "application") return { applicationId: partner.id };
  if (partner.kind === "tool") return { toolId: partner.id };
  return { applicationId: null, toolId: null, applicationName: partner.name };
}

function partnerOf(r: {
  applicationId: string | null;
  applicationName: string | null;
  application: { name: string } | null;
  toolId: string | null;
  toolName: string | null;
  tool: { title: string } | null;
}): TDataAccessPartner {
  if (r.toolId || (r.toolName !== null && !r.applicationName)) {
    return { id: r.toolId, kind: "tool", name: r.tool?.title ?? r.toolName ?? "", deleted: !r.toolId };
  }
  return { id: r.applicationId, kind: "application", name: r.application?.name ?? r.applicationName ?? "", deleted: !r.applicationId };
}

/**
 * The institution's access log: every Data API or summary read, user-info read, id token issued
 * and LTI launch concerning the institution and its descendants (a network read is logged at the
 * network), newest first, filterable by partner, channel and day. Rows of partners deleted since
 * stay, with the name the partner had.
 */
export async function listDataAccessLogs(options: {
  scope: TManagerScope;
  institutionId: string;
  /** Shortcut for `partner: { kind: "application", id }`. */
  applicationId?: string;
  partner?: TPartnerFilter;
  channel?: TAccessChannel;
  from?: string;
  to?: string;
  page: number;
  pageSize?: number;
}): Promise<TPage<TDataAccessRow> & { partners: TDataAccessPartner[] }> {
  const institution = requireInReach(options);
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const subtree = subtreeOf({ institutions: options.scope.institutions, rootId: institution.id }).map((i) => i.id);
  const names = new Map(options.scope.institutions.map((i) => [i.id, i.name]));
  const range = dayRange({ from: options.from, to: options.to });
  const partner = options.partner ?? (options.applicationId ? { kind: "application" as const, id: options.applicationId } : undefined);
  const base: Prisma.DataAccessLogWhereInput = { institutionId: { in: subtree } };
  const where: Prisma.DataAccessLogWhereInput = {
    ...base,
    ...(partner ? partnerWhere(partner) : {}),
    ...(options.channel ? { channel: options.channel } : {}),
    ...(range.from || range.until ? { createdAt: { ...(range.from ? { gte: range.from } : {}), ...(range.until ? { lt: range.until } : {}) } } : {}),
  };
  const [total, rows, groups] = await Promise.all([
    db().dataAccessLog.count({ where }),
    db().dataAccessLog.findMany({
      where,
      include: {
        application: { select: { name: true, edtech: { select: { name: true } } } },
        tool: { select: { title: true, edtech: { select: { name: true } } } },
        profile: { select: { id: true, person: { select: { name: true } } } },
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (options.page - 1) * pageSize,
      take: pageSize,
    }),
    db().dataAccessLog.groupBy({ where: base, by: ["applicationId", "applicationName", "toolId", "toolName"] }),
  ]);
  const [liveApplications, liveTools] = await Promise.all([
    db().oAuthApplication.findMany({ where: { id: { in: groups.flatMap((g) => (g.applicationId ? [g.applicationId] : [])) } }, select: { id: true, name: true } }),
    db().tool.findMany({ where: { id: { in: groups.flatMap((g) => (g.toolId ? [g.toolId] : [])) } }, select: { id: true, title: true } }),
  ]);
  const applicationNames = new Map(liveApplications.map((a) => [a.id, a.name]));
  const toolNames = new Map(liveTools.map((t) => [t.id, t.title]));
  // One entry per partner: a renamed partner has rows under several names, a deleted one only its name.
  const partners = new Map<string, TDataAccessPartner>();
  for (const g of groups) {
    const p = partnerOf({
      ...g,
      application: g.applicationId ? { name: applicationNames.get(g.applicationId) ?? g.applicationName ?? "" } : null,
      tool: g.toolId ? { title: toolNames.get(g.toolId) ?? g.toolName ?? "" } : null,
    });
    partners.set(p.id ?? `deleted:${p.name}`, p);
  }
  return {
    ...toPage({
      items: rows.map((r) => ({
        id: r.id,
        at: r.createdAt,
        channel: r.channel,
        partner: partnerOf(r),
        edtechName: r.application?.edtech.name ?? r.tool?.edtech.name ?? null,
        institutionId: r.institutionId,
        institutionName: names.get(r.institutionId) ?? "",
        person: r.profile ? { profileId: r.profile.id, name: r.profile.person.name } : null,
        attributes: r.attributes,
        filters: (r.filters ?? {}) as Record<string, string>,
        status: r.status,
        eventCount: r.eventCount,
      })),
      total,
      page: options.page,
      pageSize,
    }),
    partners: [...partners.values()].sort((a, b) => a.name.localeCompare(b.name, "pt-BR") || Number(a.deleted) - Number(b.deleted)),
  };
}
