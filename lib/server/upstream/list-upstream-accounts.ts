import { db } from "@/lib/server/db/database";
import type { TProviderKind } from "@/lib/upstream/presets";

export interface TUpstreamAccountRow {
  id: string;
  providerId: string;
  providerName: string;
  kind: TProviderKind;
  /** The e-mail the provider gave at the last sign-in, if any. */
  email: string | null;
  createdAt: Date;
  lastUsedAt: Date;
}

/**
 * The upstream accounts linked to a person ("Meus dados"), or those through the providers of some
 * institutions (`providerInstitutionIds`: a manager's person page shows the accounts of the
 * providers that apply there, not what another network knows of the person).
 */
export async function listUpstreamAccounts(options: { personId: string; providerInstitutionIds?: string[] }): Promise<TUpstreamAccountRow[]> {
  const rows = await db().upstreamAccount.findMany({
    where: { personId: options.personId, unlinkedAt: null, ...(options.providerInstitutionIds ? { provider: { institutionId: { in: options.providerInstitutionIds } } } : {}) },
    select: { id: true, providerId: true, email: true, createdAt: true, lastUsedAt: true, provider: { select: { name: true, kind: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => ({ id: r.id, providerId: r.providerId, providerName: r.provider.name, kind: r.provider.kind, email: r.email, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt }));
}
