import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { Tx } from "@/lib/server/school-data/record-change";
import { ZIdSchema } from "@/lib/validations/developer";

export interface AssertEdtechMemberOptions {
  personId: string;
  edtechId: string;
  tx?: Tx;
}

/**
 * The person belongs to the edtech, or a 403. Used where the edtech comes from the form (creating
 * a tool or an application); existing resources are found through findMemberTool /
 * findMemberApplication instead, which answer 404 so other edtechs' ids reveal nothing.
 */
export async function assertEdtechMember({ personId, edtechId, tx }: AssertEdtechMemberOptions): Promise<{ edtechId: string; role: "owner" | "member" }> {
  const forbidden = new AppError("forbidden", "Você não participa desta edtech.", { edtechId: "Escolha uma edtech da qual você participa." });
  if (!ZIdSchema.safeParse(edtechId).success || !ZIdSchema.safeParse(personId).success) throw forbidden;
  const member = await (tx ?? db()).edtechMember.findUnique({ where: { edtechId_personId: { edtechId, personId } }, select: { role: true } });
  if (!member) throw forbidden;
  return { edtechId, role: member.role };
}
