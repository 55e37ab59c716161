import { AppError } from "@/lib/errors";
import { db } from "@/lib/server/db/database";
import { findMemberApplication } from "@/lib/server/developer/find-member-application";
import { ZIdSchema } from "@/lib/validations/developer";
import type { TBatchEndpoint } from "./deliver-next-batch";

/** A webhook endpoint of an application of an edtech the person belongs to; anything else is the same 404. */
export async function findMemberEndpoint(options: { personId: string; applicationId: string; endpointId: string }): Promise<TBatchEndpoint & { disabledAt: Date | null }> {
  const application = await findMemberApplication({ personId: options.personId, applicationId: options.applicationId });
  const notFound = new AppError("not_found", "Endpoint de webhook não encontrado.");
  if (!ZIdSchema.safeParse(options.endpointId).success) throw notFound;
  const endpoint = await db().webhookEndpoint.findFirst({ where: { id: options.endpointId, applicationId: application.id } });
  if (!endpoint) throw notFound;
  return {
    endpointId: endpoint.id,
    applicationId: application.id,
    edtechId: application.edtechId,
    url: endpoint.url,
    secretSealed: endpoint.secretSealed,
    entities: endpoint.entities,
    kinds: endpoint.kinds,
    disabledAt: endpoint.disabledAt,
  };
}
