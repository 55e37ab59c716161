import { db } from "@/lib/server/db/database";

export interface TDeveloperEdtech {
  id: string;
  name: string;
  role: "owner" | "member";
}

/** The edtechs a person belongs to; being in at least one is what makes a developer. */
export async function listDeveloperEdtechs({ personId }: { personId: string }): Promise<TDeveloperEdtech[]> {
  const rows = await db().edtechMember.findMany({
    where: { personId },
    select: { role: true, edtech: { select: { id: true, name: true } } },
    orderBy: { edtech: { name: "asc" } },
  });
  return rows.map((r) => ({ id: r.edtech.id, name: r.edtech.name, role: r.role }));
}
