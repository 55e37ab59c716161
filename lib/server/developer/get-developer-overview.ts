import { db } from "@/lib/server/db/database";
import type { TDeveloperEdtech } from "./list-developer-edtechs";

export interface TOverviewTool {
  id: string;
  title: string;
  shortDescription: string;
  logoUrl: string | null;
  launchUrl: string;
  status: "active" | "withdrawn";
  placements: number;
}

export interface TOverviewApplication {
  id: string;
  name: string;
  clientId: string;
  activeKeys: number;
}

export interface TOverviewEdtech extends TDeveloperEdtech {
  tools: TOverviewTool[];
  applications: TOverviewApplication[];
}

/** Tools and applications of every edtech the person belongs to, for /desenvolvedor. */
export async function getDeveloperOverview({ personId }: { personId: string }): Promise<TOverviewEdtech[]> {
  const memberships = await db().edtechMember.findMany({
    where: { personId },
    orderBy: { edtech: { name: "asc" } },
    select: {
      role: true,
      edtech: {
        select: {
          id: true,
          name: true,
          tools: {
            orderBy: [{ status: "asc" }, { title: "asc" }],
            select: { id: true, title: true, shortDescription: true, logoId: true, launchUrl: true, status: true, _count: { select: { placements: true } } },
          },
          applications: {
            orderBy: { name: "asc" },
            select: { id: true, name: true, clientId: true, _count: { select: { apiKeys: { where: { revokedAt: null } } } } },
          },
        },
      },
    },
  });
  return memberships.map(({ role, edtech }) => ({
    id: edtech.id,
    name: edtech.name,
    role,
    tools: edtech.tools.map((t) => ({
      id: t.id,
      title: t.title,
      shortDescription: t.shortDescription,
      logoUrl: t.logoId ? `/assets/${t.logoId}` : null,
      launchUrl: t.launchUrl,
      status: t.status,
      placements: t._count.placements,
    })),
    applications: edtech.applications.map((a) => ({ id: a.id, name: a.name, clientId: a.clientId, activeKeys: a._count.apiKeys })),
  }));
}
