import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { encryptSecret } from "@/lib/server/crypto/secret-box";
import { transaction } from "@/lib/server/db/transaction";
import { requireInReach } from "@/lib/server/management/require-in-reach";
import type { TManagerScope } from "@/lib/server/management/resolve-manager-scope";
import type { TIdentityProviderInput } from "@/lib/validations/upstream";
import { settingsOf } from "./provider-settings";
import { UPSTREAM_SECRET_PURPOSE } from "./provider-row";
import { insecureIssuerAllowed } from "./upstream-client";

/**
 * Creates or updates an upstream provider of the institution. The client secret is sealed at rest
 * and never shown again (a blank secret on an update keeps the stored one). Recorded in the
 * institution's rule history with the settings before and after, never the secret.
 */
export async function saveIdentityProvider(options: { scope: TManagerScope; institutionId: string; input: TIdentityProviderInput }): Promise<{ id: string; created: boolean }> {
  const institution = requireInReach(options);
  const { input } = options;
  if (new URL(input.issuer).protocol === "http:" && !insecureIssuerAllowed(new URL(input.issuer))) {
    throw new AppError("bad_request", "O emissor precisa usar https://.", { issuer: "O emissor precisa usar https://." });
  }
  if (!input.providerId && !input.clientSecret) throw new AppError("bad_request", "Informe o client secret.", { clientSecret: "Informe o client secret." });
  const data = {
    kind: input.kind,
    name: input.name,
    issuer: input.issuer,
    tenantId: input.tenantId,
    clientId: input.clientId,
    allowedDomains: input.allowedDomains,
    linkRule: input.linkRule,
    enabled: input.enabled,
    ...(input.clientSecret ? { clientSecretSealed: encryptSecret(input.clientSecret, UPSTREAM_SECRET_PURPOSE) } : {}),
  };
  return transaction(async (tx) => {
    const before = input.providerId ? await tx.identityProvider.findFirst({ where: { id: input.providerId, institutionId: institution.id } }) : null;
    if (input.providerId && !before) throw new AppError("not_found", "Forma de entrada não encontrada nesta instituição.");
    const saved = before
      ? await tx.identityProvider.update({ where: { id: before.id }, data })
      : await tx.identityProvider.create({ data: { ...data, institutionId: institution.id, clientSecretSealed: data.clientSecretSealed ?? "" } });
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: before ? "identity_provider.update" : "identity_provider.create",
      targetType: "identity_provider",
      targetId: saved.id,
      institutionId: institution.id,
      details: {
        partnerName: saved.name,
        before: before ? settingsOf(before) : null,
        after: settingsOf(saved),
        credentialReplaced: Boolean(before && input.clientSecret),
      },
    });
    return { id: saved.id, created: !before };
  });
}
