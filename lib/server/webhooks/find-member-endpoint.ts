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
  const endpoint = await db().webhookEndpoint.findFirst({
    where: { id: options.endpointId, applicationId: application.id },
    select: { id: true, url: true, secretSealed: true, entities: true, kinds: true, disabledAt: true },
  });
  if (!endpoint) throw notFound;
  const { id: endpointId, ...delivery } = endpoint;
  return { endpointId, applicationId: application.id, edtechId: application.edtechId, ...delivery };
}
