// The developer's view of a tool: everything but the shared secret, which is write-only.
import type { TMemberToolRow } from "./find-member-tool";

export interface TDeveloperTool {
  id: string;
  edtechId: string;
  edtechName: string;
  title: string;
  shortDescription: string;
  longDescription: string;
  siteUrl: string;
  logoUrl: string | null;
  launchUrl: string;
  consumerKey: string;
  status: "active" | "withdrawn";
  createdAt: Date;
  updatedAt: Date;
}

export function toDeveloperTool(row: TMemberToolRow): TDeveloperTool {
  return {
    id: row.id,
    edtechId: row.edtechId,
    edtechName: row.edtech.name,
    title: row.title,
    shortDescription: row.shortDescription,
    longDescription: row.longDescription,
    siteUrl: row.siteUrl,
    // Same address the gallery uses (lib/server/gallery), so the preview shows exactly that file.
    logoUrl: row.logoId ? `/assets/${row.logoId}` : null,
    launchUrl: row.launchUrl,
    consumerKey: row.consumerKey,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
