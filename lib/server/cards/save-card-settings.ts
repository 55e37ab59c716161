import { parseCardNetworks } from "@/lib/cards/networks";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { transaction } from "@/lib/server/db/transaction";
import { requireInReach } from "@/lib/server/management/require-in-reach";
import type { TManagerScope } from "@/lib/server/management/resolve-manager-scope";

/**
 * An institution's rules for sign-in cards: the networks (CIDR ranges, one per line; none = any
 * network) and whether only student profiles may use one. They apply to the cards of the
 * institution's own profiles. Audited.
 */
export async function saveCardSettings(options: { scope: TManagerScope; institutionId: string; networks: string; studentsOnly: boolean }): Promise<{ networks: string[] }> {
  const institution = requireInReach({ scope: options.scope, institutionId: options.institutionId });
  const parsed = parseCardNetworks(options.networks);
  if (!parsed.ok) throw new AppError("bad_request", "Corrija os campos indicados.", { cardNetworks: parsed.message });
  await transaction(async (tx) => {
    await tx.institution.update({ where: { id: institution.id }, data: { cardNetworks: parsed.networks, cardStudentsOnly: options.studentsOnly } });
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: "card.settings",
      targetType: "institution",
      targetId: institution.id,
      institutionId: institution.id,
      details: { networks: parsed.networks, studentsOnly: options.studentsOnly },
    });
  });
  return { networks: parsed.networks };
}
