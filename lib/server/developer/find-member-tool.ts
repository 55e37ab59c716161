import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/server/school-data/record-change";
import { ZIdSchema } from "@/lib/validations/developer";

export const MEMBER_TOOL_SELECT = {
  id: true,
  edtechId: true,
  edtech: { select: { name: true } },
  title: true,
  shortDescription: true,
  longDescription: true,
  siteUrl: true,
  logoId: true,
  launchUrl: true,
  consumerKey: true,
  status: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.ToolSelect;

export type TMemberToolRow = Prisma.ToolGetPayload<{ select: typeof MEMBER_TOOL_SELECT }>;

export interface FindMemberToolOptions {
  personId: string;
  toolId: string;
  tx?: Tx;
}

/**
 * A tool of an edtech the person belongs to. Anything else — malformed id, unknown tool, another
 * edtech's tool — is the same 404, so ids of other edtechs' tools cannot be probed.
 */
export async function findMemberTool({ personId, toolId, tx }: FindMemberToolOptions): Promise<TMemberToolRow> {
  const notFound = new AppError("not_found", "Ferramenta não encontrada.");
  if (!ZIdSchema.safeParse(toolId).success || !ZIdSchema.safeParse(personId).success) throw notFound;
  const tool = await (tx ?? db()).tool.findFirst({
    where: { id: toolId, edtech: { members: { some: { personId } } } },
    select: MEMBER_TOOL_SELECT,
  });
  if (!tool) throw notFound;
  return tool;
}
