import { randomBytes } from "node:crypto";
import { generateSecret, hashSecret } from "@/lib/oauth/secret";
import { mapDbError } from "@/lib/server/db/map-db-error";
import type { TApplicationFieldsForm } from "@/lib/validations/developer";
import { assertEdtechMember } from "./assert-edtech-member";
import { toDeveloperApplication, type TDeveloperApplication } from "./developer-application";
import { MEMBER_APPLICATION_SELECT } from "./find-member-application";
import { transaction } from "@/lib/server/db/transaction";
import { parseApplicationInput } from "./parse-application-input";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface CreateApplicationOptions {
  actorPersonId: string;
  edtechId: string;
  fields: TApplicationFieldsForm;
}

export interface TCreatedApplication {
  application: TDeveloperApplication;
  /** Shown once; the hub keeps only its SHA-256 (lib/oauth/secret.ts explains why that is enough). */
  clientSecret: string;
}

/** Registers an OAuth 2 client: the hub generates client_id and client_secret. */
export async function createApplication({ actorPersonId, edtechId, fields }: CreateApplicationOptions): Promise<TCreatedApplication> {
  await assertEdtechMember({ personId: actorPersonId, edtechId });
  const input = parseApplicationInput(fields);
  const clientSecret = generateSecret(32);
  try {
    const row = await transaction(async (tx) => {
      await assertEdtechMember({ personId: actorPersonId, edtechId, tx });
      const application = await tx.oAuthApplication.create({
        data: {
          edtechId,
          name: input.name,
          description: input.description,
          homepageUrl: input.homepageUrl ?? null,
          redirectUris: input.redirectUris,
          defaultResponseType: input.defaultResponseType,
          // Public, appears in URLs: readable hex, 96 random bits so ids cannot be enumerated.
          clientId: `app-${randomBytes(12).toString("hex")}`,
          clientSecretHash: hashSecret(clientSecret),
        },
        select: MEMBER_APPLICATION_SELECT,
      });
      await recordAudit(tx, {
        actorPersonId,
        action: "application.create",
        targetType: "application",
        targetId: application.id,
        edtechId,
        details: { name: application.name, clientId: application.clientId, redirectUris: application.redirectUris },
      });
      return application;
    });
    return { application: toDeveloperApplication(row), clientSecret };
  } catch (error) {
    return mapDbError(error, "Aplicação");
  }
}
