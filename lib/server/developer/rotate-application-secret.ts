import { generateSecret, hashSecret } from "@/lib/oauth/secret";
import { findMemberApplication } from "./find-member-application";
import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface RotateApplicationSecretOptions {
  actorPersonId: string;
  applicationId: string;
}

/**
 * Replaces the client secret. The old one stops working at once (token exchanges compare with the
 * stored hash on every request); tokens already issued stay valid until they expire.
 */
export async function rotateApplicationSecret({ actorPersonId, applicationId }: RotateApplicationSecretOptions): Promise<{ clientSecret: string }> {
  await findMemberApplication({ personId: actorPersonId, applicationId });
  const clientSecret = generateSecret(32);
  await transaction(async (tx) => {
    const current = await findMemberApplication({ personId: actorPersonId, applicationId, tx });
    await tx.oAuthApplication.update({ where: { id: applicationId }, data: { clientSecretHash: hashSecret(clientSecret) } });
    await recordAudit(tx, {
      actorPersonId,
      action: "application.rotate_secret",
      targetType: "application",
      targetId: applicationId,
      edtechId: current.edtechId,
      details: { clientId: current.clientId },
    });
  });
  return { clientSecret };
}
