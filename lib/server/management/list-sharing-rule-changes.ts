import { z } from "zod";
import type { TProviderSettings } from "@/lib/server/upstream/provider-settings";
import { LINK_RULES, PROVIDER_KINDS } from "@/lib/upstream/presets";
import { db } from "@/lib/server/db/database";
import type { Prisma } from "@/lib/generated/prisma/client";
import { PROFILE_ROLES, type TProfileRole } from "@/lib/validations/data-api";
import { PAGE_SIZE } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import { subtreeOf } from "@/lib/server/institution-tree/subtree-of";
import type { TManagerScope } from "./resolve-manager-scope";
import { toPage, type TPage } from "./to-page";

/** The attribute rules before or after a change; null = no rule of this institution. */
export interface TSharingRules {
  allowed: string[];
  anonymized: string[];
  /** Per-role overrides (docs/decisions/015-sharing-rules-per-role.md), when some role differs; absent roles follow the base. */
  roles?: Partial<Record<TProfileRole, { allowed: string[]; anonymized: string[] }>>;
  /** True when an application's rule turned OneRoster 1.2 on; absent when off (and for tools). */
  oneRoster?: true;
}

export type TRuleChange =
  | { kind: "sharing"; before: TSharingRules | null; after: TSharingRules | null }
  | { kind: "contract"; before: boolean; after: boolean }
  | { kind: "provider"; before: TProviderSettings | null; after: TProviderSettings | null; credentialReplaced: boolean };

export interface TRuleChangeRow {
  id: string;
  at: Date;
  action: string;
  actorName: string | null;
  institutionId: string;
  institutionName: string;
  partner: { id: string; kind: "application" | "tool" | "edtech" | "provider"; name: string; deleted: boolean };
  change: TRuleChange;
}

// What the history shows: the audit rows of the sharing rules (applications; tools, as their
// rules land), of the edtech contracts and of the upstream sign-in providers, written by
// set-application-access / set-edtech-link / save-identity-provider / set-identity-provider-state.
const ACTIONS = [
  "application_access.set",
  "application_access.delete",
  "tool_sharing.set",
  "tool_sharing.delete",
  "edtech_link.create",
  "edtech_link.delete",
  "identity_provider.create",
  "identity_provider.update",
  "identity_provider.delete",
];

const ZLists = z.object({ allowed: z.array(z.string()), anonymized: z.array(z.string()) });
// Without `roles` (every row written before per-role rules, and rules alike for every role) each
// role follows the base.
const ZRules = ZLists.extend({
  roles: z.partialRecord(z.enum(PROFILE_ROLES), ZLists).optional().catch(undefined),
  oneRoster: z.literal(true).optional().catch(undefined),
})
  .nullable()
  .catch(null);
const ZDetails = z.object({
  partnerName: z.string().optional().catch(undefined),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  credentialReplaced: z.boolean().optional().catch(undefined),
});
const ZProviderSettings = z
  .object({
    kind: z.enum(PROVIDER_KINDS),
    name: z.string(),
    issuer: z.string(),
    tenantId: z.string().nullable(),
    clientId: z.string(),
    allowedDomains: z.array(z.string()),
    linkRule: z.enum(LINK_RULES),
    enabled: z.boolean(),
  })
  .nullable()
  .catch(null);

const kindOf = (action: string): TRuleChangeRow["partner"]["kind"] =>
  action.startsWith("tool_sharing.") ? "tool" : action.startsWith("edtech_link.") ? "edtech" : action.startsWith("identity_provider.") ? "provider" : "application";

function changeOf(action: string, details: Prisma.JsonValue): TRuleChange {
  const parsed = ZDetails.safeParse(details ?? {});
  const d = parsed.success ? parsed.data : {};
  if (kindOf(action) === "provider") {
    return { kind: "provider", before: ZProviderSettings.parse(d.before ?? null), after: ZProviderSettings.parse(d.after ?? null), credentialReplaced: d.credentialReplaced ?? false };
  }
  if (kindOf(action) === "edtech") {
    // Rows written before the history existed carry no details: the action says it all.
    return { kind: "contract", before: action === "edtech_link.delete", after: action === "edtech_link.create" };
  }
  return { kind: "sharing", before: ZRules.parse(d.before ?? null), after: ZRules.parse(d.after ?? null) };
}

/**
 * Who changed which partner's sharing rules (or edtech contract), when, and from what to what, at
 * the institution and its descendants, newest first, optionally for one partner.
 */
export async function listSharingRuleChanges(options: {
  scope: TManagerScope;
  institutionId: string;
  partnerId?: string;
  page: number;
  pageSize?: number;
}): Promise<TPage<TRuleChangeRow> & { partners: TRuleChangeRow["partner"][] }> {
  const institution = requireInReach(options);
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const subtree = subtreeOf({ institutions: options.scope.institutions, rootId: institution.id }).map((i) => i.id);
  const institutionNames = new Map(options.scope.institutions.map((i) => [i.id, i.name]));
  const base: Prisma.AuditLogWhereInput = { institutionId: { in: subtree }, action: { in: ACTIONS } };
  const where: Prisma.AuditLogWhereInput = { ...base, ...(options.partnerId ? { targetId: options.partnerId } : {}) };
  const [total, rows, targets] = await Promise.all([
    db().auditLog.count({ where }),
    db().auditLog.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: (options.page - 1) * pageSize, take: pageSize }),
    db().auditLog.findMany({ where: base, distinct: ["targetId"], select: { targetId: true, action: true, details: true }, orderBy: { createdAt: "desc" } }),
  ]);
  const ids = (kind: TRuleChangeRow["partner"]["kind"]) => [...new Set([...rows, ...targets].filter((r) => kindOf(r.action) === kind && r.targetId).map((r) => r.targetId!))];
  const actorIds = [...new Set(rows.flatMap((r) => (r.actorPersonId ? [r.actorPersonId] : [])))];
  const [applications, tools, edtechs, providers, actors] = await Promise.all([
    db().oAuthApplication.findMany({ where: { id: { in: ids("application") } }, select: { id: true, name: true } }),
    db().tool.findMany({ where: { id: { in: ids("tool") } }, select: { id: true, title: true } }),
    db().edtech.findMany({ where: { id: { in: ids("edtech") } }, select: { id: true, name: true } }),
    db().identityProvider.findMany({ where: { id: { in: ids("provider") } }, select: { id: true, name: true } }),
    db().person.findMany({ where: { id: { in: actorIds } }, select: { id: true, name: true } }),
  ]);
  const live = new Map<string, string>([...applications.map((a) => [a.id, a.name] as const), ...tools.map((t) => [t.id, t.title] as const), ...edtechs.map((e) => [e.id, e.name] as const), ...providers.map((p) => [p.id, p.name] as const)]);
  const actorNames = new Map(actors.map((a) => [a.id, a.name]));
  const partnerOf = (r: { targetId: string | null; action: string; details: Prisma.JsonValue }): TRuleChangeRow["partner"] => {
    const id = r.targetId ?? "";
    const kept = ZDetails.safeParse(r.details ?? {});
    const name = live.get(id) ?? (kept.success ? kept.data.partnerName : undefined) ?? "";
    return { id, kind: kindOf(r.action), name, deleted: !live.has(id) };
  };
  return {
    ...toPage({
      items: rows.map((r) => ({
        id: r.id,
        at: r.createdAt,
        action: r.action,
        actorName: r.actorPersonId ? (actorNames.get(r.actorPersonId) ?? null) : null,
        institutionId: r.institutionId ?? "",
        institutionName: institutionNames.get(r.institutionId ?? "") ?? "",
        partner: partnerOf(r),
        change: changeOf(r.action, r.details),
      })),
      total,
      page: options.page,
      pageSize,
    }),
    partners: targets.map(partnerOf).sort((a, b) => a.name.localeCompare(b.name, "pt-BR")),
  };
}
