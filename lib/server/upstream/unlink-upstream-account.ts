import { AppError } from "@/lib/errors";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { transaction } from "@/lib/server/db/transaction";

/**
 * A person unlinks one of their upstream accounts: it signs nobody in any more, even though its
 * verified e-mail or CPF still names the person, until the person links it again from "Meus dados"
 * (the row is kept, marked, for that). Audited in the provider's institution.
 */
export async function unlinkUpstreamAccount(options: { personId: string; accountId: string }): Promise<void> {
  await transaction(async (tx) => {
    const account = isUuidText(options.accountId)
      ? await tx.upstreamAccount.findFirst({ where: { id: options.accountId, personId: options.personId, unlinkedAt: null }, select: { id: true, provider: { select: { id: true, name: true, kind: true, institutionId: true } } } })
      : null;
    if (!account) throw new AppError("not_found", "Conta vinculada não encontrada.");
    await tx.upstreamAccount.update({ where: { id: account.id }, data: { unlinkedAt: new Date() } });
    await recordAudit(tx, {
      actorPersonId: options.personId,
      action: "upstream.unlink",
      targetType: "upstream_account",
      targetId: account.id,
      institutionId: account.provider.institutionId,
      details: { provider: account.provider.name, kind: account.provider.kind },
    });
  });
}
