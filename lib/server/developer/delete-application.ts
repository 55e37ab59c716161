import { AppError } from "@/lib/errors";
import { findMemberApplication } from "./find-member-application";
import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface DeleteApplicationOptions {
  actorPersonId: string;
  applicationId: string;
  /** The application's name typed again: deleting also drops every key and school access. */
  confirmName: string;
}

/**
 * Deletes an application. Its API keys, authorization codes, tokens and the schools' access
 * settings go with it (cascades in the schema); the audit row keeps who deleted what.
 */
export async function deleteApplication({ actorPersonId, applicationId, confirmName }: DeleteApplicationOptions): Promise<void> {
  const application = await findMemberApplication({ personId: actorPersonId, applicationId });
  if (confirmName.trim() !== application.name) {
    throw new AppError("bad_request", "Revise os campos destacados.", { confirmName: `Digite exatamente "${application.name}" para confirmar.` });
  }
  await transaction(async (tx) => {
    const current = await findMemberApplication({ personId: actorPersonId, applicationId, tx });
    const keys = await tx.apiKey.count({ where: { applicationId } });
    await tx.oAuthApplication.delete({ where: { id: applicationId } });
    await recordAudit(tx, {
      actorPersonId,
      action: "application.delete",
      targetType: "application",
      targetId: applicationId,
      edtechId: current.edtechId,
      details: { name: current.name, clientId: current.clientId, apiKeysDeleted: keys },
    });
  });
}
