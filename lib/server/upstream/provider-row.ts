import { db } from "@/lib/server/db/database";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import type { IdentityProviderKind } from "@/lib/generated/prisma/enums";
import type { TLinkRule } from "@/lib/upstream/presets";

/** secret-box purpose of an upstream provider's client secret (sealed like the LTI secrets). */
export const UPSTREAM_SECRET_PURPOSE = "upstream-client-secret";

/** An identity provider as the relying party reads it. */
export interface TProviderRow {
  id: string;
  institutionId: string;
  kind: IdentityProviderKind;
  name: string;
  issuer: string;
  tenantId: string | null;
  clientId: string;
  clientSecretSealed: string;
  allowedDomains: string[];
  linkRule: TLinkRule;
  enabled: boolean;
  updatedAt: Date;
}

const PROVIDER_SELECT = {
  id: true,
  institutionId: true,
  kind: true,
  name: true,
  issuer: true,
  tenantId: true,
  clientId: true,
  clientSecretSealed: true,
  allowedDomains: true,
  linkRule: true,
  enabled: true,
  updatedAt: true,
} as const;

/** The link rule column as the type says it is (the form writes only these two). */
export const asLinkRule = (value: string): TLinkRule => (value === "cpf" ? "cpf" : "email");

/** The provider with this id as the relying party reads it, or null (also for a value that is no UUID: a made-up link). */
export async function findProvider(providerId: string): Promise<TProviderRow | null> {
  if (!isUuidText(providerId)) return null;
  const row = await db().identityProvider.findUnique({ where: { id: providerId }, select: PROVIDER_SELECT });
  return row ? { ...row, linkRule: asLinkRule(row.linkRule) } : null;
}
