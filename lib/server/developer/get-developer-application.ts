import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { TApiKeySummary } from "@/lib/server/api-keys/verify-api-key";
import { toDeveloperApplication, type TDeveloperApplication } from "./developer-application";
import { findMemberApplication } from "./find-member-application";

export interface TApplicationInstitution {
  /** The Data API's org_id. */
  id: string;
  name: string;
  kind: "network" | "school";
  /** The edtech has a contract (EdtechLink) with this institution itself. */
  linked: boolean;
  /** What this application may read there, or null when the institution has not enabled it. */
  access: { allowedAttributes: string[]; anonymizedAttributes: string[] } | null;
}

export interface TDeveloperApplicationDetail extends TDeveloperApplication {
  apiKeys: TApiKeySummary[];
  institutions: TApplicationInstitution[];
}

/**
 * One of the person's applications with its keys (never the keys themselves) and the
 * institutions it relates to: those linked to the edtech and those that enabled the application.
 * Developers need the org_ids to call the Data API, and to see why a call answers 403.
 */
export async function getDeveloperApplication({ personId, applicationId }: { personId: string; applicationId: string }): Promise<TDeveloperApplicationDetail | null> {
  let row;
  try {
    row = await findMemberApplication({ personId, applicationId });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
  const institution = { select: { id: true, name: true, kind: true } } as const;
  const [apiKeys, links, access] = await Promise.all([
    db().apiKey.findMany({
      where: { applicationId },
      orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
      select: { id: true, applicationId: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    }),
    db().edtechLink.findMany({ where: { edtechId: row.edtechId }, select: { institution } }),
    db().applicationAccess.findMany({ where: { applicationId }, select: { institution, allowedAttributes: true, anonymizedAttributes: true } }),
  ]);
  const byId = new Map<string, TApplicationInstitution>();
  for (const link of links) byId.set(link.institution.id, { ...link.institution, linked: true, access: null });
  for (const a of access) {
    const entry = byId.get(a.institution.id) ?? { ...a.institution, linked: false, access: null };
    entry.access = { allowedAttributes: a.allowedAttributes, anonymizedAttributes: a.anonymizedAttributes };
    byId.set(a.institution.id, entry);
  }
  const institutions = [...byId.values()].sort((x, y) => (x.kind === y.kind ? x.name.localeCompare(y.name, "pt-BR") : x.kind === "network" ? -1 : 1));
  return { ...toDeveloperApplication(row), apiKeys, institutions };
}
