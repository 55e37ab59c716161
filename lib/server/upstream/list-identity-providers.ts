import { db } from "@/lib/server/db/database";
import { listAncestors } from "@/lib/server/institution-tree/list-ancestors";
import { requireInReach } from "@/lib/server/management/require-in-reach";
import type { TManagerScope } from "@/lib/server/management/resolve-manager-scope";
import { asLinkRule } from "./provider-row";
import type { TProviderSettings } from "./provider-settings";

/** A provider as the gestão page shows it: its settings (never the secret) and how it is used. */
export interface TManagedProvider extends TProviderSettings {
  id: string;
  linkedAccounts: number;
  updatedAt: Date;
  /** Set when the provider belongs to an institution above this one (shown, edited there). */
  inherited: { institutionId: string; institutionName: string } | null;
}

/**
 * The providers that sign in this institution's people: its own and those of the institutions
 * above it, which it inherits (resolved up the tree like the sharing rules). Never the secret.
 */
export async function listIdentityProviders(options: { scope: TManagerScope; institutionId: string }): Promise<TManagedProvider[]> {
  const institution = requireInReach(options);
  const ancestors = await listAncestors({ institutionId: institution.id });
  const names = new Map(ancestors.map((a) => [a.id, a.name]));
  const rows = await db().identityProvider.findMany({
    where: { institutionId: { in: ancestors.map((a) => a.id) } },
    select: { id: true, institutionId: true, kind: true, name: true, issuer: true, tenantId: true, clientId: true, allowedDomains: true, linkRule: true, enabled: true, updatedAt: true, _count: { select: { accounts: true } } },
    orderBy: [{ createdAt: "asc" }],
  });
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    issuer: r.issuer,
    tenantId: r.tenantId,
    clientId: r.clientId,
    allowedDomains: r.allowedDomains,
    linkRule: asLinkRule(r.linkRule),
    enabled: r.enabled,
    linkedAccounts: r._count.accounts,
    updatedAt: r.updatedAt,
    inherited: r.institutionId === institution.id ? null : { institutionId: r.institutionId, institutionName: names.get(r.institutionId) ?? "" },
  }));
}
