import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/server/school-data/record-change";
import { ZIdSchema } from "@/lib/validations/developer";

export const MEMBER_APPLICATION_SELECT = {
  id: true,
  edtechId: true,
  edtech: { select: { name: true } },
  name: true,
  description: true,
  homepageUrl: true,
  clientId: true,
  redirectUris: true,
  defaultResponseType: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.OAuthApplicationSelect;

export type TMemberApplicationRow = Prisma.OAuthApplicationGetPayload<{ select: typeof MEMBER_APPLICATION_SELECT }>;

export interface FindMemberApplicationOptions {
  personId: string;
  applicationId: string;
  tx?: Tx;
}

/** An OAuth application of an edtech the person belongs to; anything else is the same 404. */
export async function findMemberApplication({ personId, applicationId, tx }: FindMemberApplicationOptions): Promise<TMemberApplicationRow> {
  const notFound = new AppError("not_found", "Aplicação não encontrada.");
  if (!ZIdSchema.safeParse(applicationId).success || !ZIdSchema.safeParse(personId).success) throw notFound;
  const application = await (tx ?? db()).oAuthApplication.findFirst({
    where: { id: applicationId, edtech: { members: { some: { personId } } } },
    select: MEMBER_APPLICATION_SELECT,
  });
  if (!application) throw notFound;
  return application;
}
