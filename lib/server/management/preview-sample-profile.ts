import { db } from "@/lib/server/db/database";
import type { TProfileRole } from "@/lib/validations/data-api";

/**
 * The profile a preview shows when the manager picked none: the most recently changed one of the
 * institutions (a `usuario` event's record), of one role when given — the rule may differ per role,
 * so the previews show one person per role.
 */
export async function findSampleProfileId(options: { institutionIds: string[]; role?: TProfileRole }): Promise<string | undefined> {
  const event = await db().changeEvent.findFirst({
    where: { institutionId: { in: options.institutionIds }, entity: "usuario", ...(options.role ? { record: { path: ["perfil"], equals: options.role } } : {}) },
    orderBy: { seq: "desc" },
    select: { recordId: true },
  });
  return event?.recordId;
}
