import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { transaction } from "@/lib/server/db/transaction";
import { ZIdSchema } from "@/lib/validations/management";
import type { TManagerScope } from "@/lib/server/management/resolve-manager-scope";

/**
 * Revokes a profile's active card (a lost card), when the profile belongs to an institution in
 * the manager's reach (404 otherwise). The student signs in with a newly printed card. Audited.
 */
export async function revokeCard(options: { scope: TManagerScope; profileId: string }): Promise<void> {
  const id = ZIdSchema.safeParse(options.profileId);
  const reach = new Set(options.scope.institutions.map((i) => i.id));
  await transaction(async (tx) => {
    const profile = id.success ? await tx.profile.findUnique({ where: { id: id.data }, select: { id: true, institutionId: true } }) : null;
    if (!profile || !reach.has(profile.institutionId)) throw new AppError("not_found", "Pessoa não encontrada.");
    const card = await tx.signInCard.findFirst({ where: { profileId: profile.id, revokedAt: null }, select: { id: true } });
    if (!card) throw new AppError("conflict", "Esta pessoa não tem crachá válido.");
    await tx.signInCard.update({ where: { id: card.id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: "card.revoke",
      targetType: "sign_in_card",
      targetId: card.id,
      institutionId: profile.institutionId,
      details: { profileId: profile.id },
    });
  });
}
