import type { TApplicationFieldsForm } from "@/lib/validations/developer";
import { toDeveloperApplication, type TDeveloperApplication } from "./developer-application";
import { findMemberApplication, MEMBER_APPLICATION_SELECT } from "./find-member-application";
import { transaction } from "@/lib/server/db/transaction";
import { parseApplicationInput } from "./parse-application-input";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface UpdateApplicationOptions {
  actorPersonId: string;
  applicationId: string;
  fields: TApplicationFieldsForm;
}

/** Edits name, description, home page, redirect URIs and default response type. */
export async function updateApplication({ actorPersonId, applicationId, fields }: UpdateApplicationOptions): Promise<TDeveloperApplication> {
  await findMemberApplication({ personId: actorPersonId, applicationId });
  const input = parseApplicationInput(fields);
  const row = await transaction(async (tx) => {
    const current = await findMemberApplication({ personId: actorPersonId, applicationId, tx });
    const application = await tx.oAuthApplication.update({
      where: { id: applicationId },
      data: {
        name: input.name,
        description: input.description,
        homepageUrl: input.homepageUrl ?? null,
        redirectUris: input.redirectUris,
        defaultResponseType: input.defaultResponseType,
      },
      select: MEMBER_APPLICATION_SELECT,
    });
    const changed = (["name", "description", "homepageUrl", "defaultResponseType"] as const).filter((k) => current[k] !== application[k]);
    const urisChanged = current.redirectUris.join("\n") !== application.redirectUris.join("\n");
    await recordAudit(tx, {
      actorPersonId,
      action: "application.update",
      targetType: "application",
      targetId: applicationId,
      edtechId: current.edtechId,
      details: { changed: urisChanged ? [...changed, "redirectUris"] : changed, ...(urisChanged ? { redirectUris: application.redirectUris } : {}) },
    });
    return application;
  });
  return toDeveloperApplication(row);
}
