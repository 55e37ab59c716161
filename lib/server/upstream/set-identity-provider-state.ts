import { AppError } from "@/lib/errors";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { transaction } from "@/lib/server/db/transaction";
import { requireInReach } from "@/lib/server/management/require-in-reach";
import type { TManagerScope } from "@/lib/server/management/resolve-manager-scope";
import { settingsOf } from "./provider-settings";

/**
 * Enables, disables or deletes a provider of the institution. Effective at once: a sign-in on its
 * way back from the provider is refused at the callback, which reads the provider again. Deleting
 * also removes the accounts linked through it. In the rule history, before → after.
 */
export async function setIdentityProviderState(options: { scope: TManagerScope; institutionId: string; providerId: string; op: "enable" | "disable" | "delete" }): Promise<void> {
  const institution = requireInReach(options);
  await transaction(async (tx) => {
    const before = isUuidText(options.providerId) ? await tx.identityProvider.findFirst({ where: { id: options.providerId, institutionId: institution.id } }) : null;
    if (!before) throw new AppError("not_found", "Forma de entrada não encontrada nesta instituição.");
    const after =
      options.op === "delete" ? null : await tx.identityProvider.update({ where: { id: before.id }, data: { enabled: options.op === "enable" } });
    if (options.op === "delete") await tx.identityProvider.delete({ where: { id: before.id } });
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: options.op === "delete" ? "identity_provider.delete" : "identity_provider.update",
      targetType: "identity_provider",
      targetId: before.id,
      institutionId: institution.id,
      details: {
        partnerName: before.name,
        before: settingsOf(before),
        after: after ? settingsOf(after) : null,
      },
    });
  });
}
