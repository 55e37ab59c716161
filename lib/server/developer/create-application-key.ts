import { AppError } from "@/lib/errors";
import { createApiKey } from "@/lib/server/api-keys/create-api-key";
import type { TApiKeySummary } from "@/lib/server/api-keys/verify-api-key";
import { ZApiKeyNameSchema } from "@/lib/validations/developer";
import { findMemberApplication } from "./find-member-application";
import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface CreateApplicationKeyOptions {
  actorPersonId: string;
  applicationId: string;
  name?: string;
}

/** A Data API key for one of the person's applications; the key is returned once. */
export async function createApplicationKey({ actorPersonId, applicationId, name }: CreateApplicationKeyOptions): Promise<{ apiKey: TApiKeySummary; key: string }> {
  const application = await findMemberApplication({ personId: actorPersonId, applicationId });
  const parsedName = ZApiKeyNameSchema.safeParse(name);
  if (!parsedName.success) throw new AppError("bad_request", "Revise os campos destacados.", { name: parsedName.error.issues[0]?.message ?? "Nome inválido." });
  // createApiKey writes with its own connection: on PGlite a second statement outside an open
  // transaction would wait for it forever, so the audit row follows in its own transaction.
  const created = await createApiKey({ applicationId, name: parsedName.data });
  await transaction((tx) =>
    recordAudit(tx, {
      actorPersonId,
      action: "api_key.create",
      targetType: "api_key",
      targetId: created.apiKey.id,
      edtechId: application.edtechId,
      details: { applicationId, prefix: created.apiKey.prefix, name: created.apiKey.name },
    }),
  );
  return created;
}
