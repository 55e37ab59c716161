import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { PAGE_SIZE } from "@/lib/validations/management";
import { dayRange } from "./day-range";
import { requireInReach } from "./require-in-reach";
import { subtreeOf } from "./subtree-of";
import type { TManagerScope } from "./resolve-manager-scope";
import { toPage, type TPage } from "./to-page";

export interface TDataAccessRow {
  id: string;
  at: Date;
  applicationId: string;
  applicationName: string;
  edtechName: string;
  institutionId: string;
  institutionName: string;
  endpoint: string;
  filters: Record<string, string>;
  status: number;
  eventCount: number;
}

/**
 * Which application read which institution's data, when and with which filters: the reads of the
 * institution and of its descendants (a network read is logged at the network), newest first.
 */
export async function listDataAccessLogs(options: {
  scope: TManagerScope;
  institutionId: string;
  applicationId?: string;
  from?: string;
  to?: string;
  page: number;
  pageSize?: number;
}): Promise<TPage<TDataAccessRow> & { applications: { id: string; name: string }[] }> {
  const institution = requireInReach(options);
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const subtree = subtreeOf({ institutions: options.scope.institutions, rootId: institution.id });
  const names = new Map(options.scope.institutions.map((i) => [i.id, i.name]));
  const range = dayRange({ from: options.from, to: options.to });
  const base: Prisma.DataAccessLogWhereInput = { institutionId: { in: subtree } };
  const where: Prisma.DataAccessLogWhereInput = {
    ...base,
    ...(options.applicationId ? { applicationId: options.applicationId } : {}),
    ...(range.from || range.until ? { createdAt: { ...(range.from ? { gte: range.from } : {}), ...(range.until ? { lt: range.until } : {}) } } : {}),
  };
  const [total, rows, applicationIds] = await Promise.all([
    db().dataAccessLog.count({ where }),
    db().dataAccessLog.findMany({
      where,
      include: { application: { select: { name: true, edtech: { select: { name: true } } } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (options.page - 1) * pageSize,
      take: pageSize,
    }),
    db().dataAccessLog.findMany({ where: base, distinct: ["applicationId"], select: { applicationId: true } }),
  ]);
  const applications = await db().oAuthApplication.findMany({
    where: { id: { in: applicationIds.map((a) => a.applicationId) } },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  return {
    ...toPage({
      items: rows.map((r) => ({
        id: r.id,
        at: r.createdAt,
        applicationId: r.applicationId,
        applicationName: r.application.name,
        edtechName: r.application.edtech.name,
        institutionId: r.institutionId,
        institutionName: names.get(r.institutionId) ?? "",
        endpoint: r.endpoint,
        filters: (r.filters ?? {}) as Record<string, string>,
        status: r.status,
        eventCount: r.eventCount,
      })),
      total,
      page: options.page,
      pageSize,
    }),
    applications,
  };
}
