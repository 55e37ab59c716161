// Whether an application is enabled for an institution, and which personal attributes that
// institution shares with it (docs/decisions/005-oauth-tokens.md, "Enabled applications").
//
// An application is enabled for a profile when, walking up from the profile's institution:
//   - the application's edtech has an EdtechLink at that institution or an ancestor (the
//     contract), and
//   - the application has an ApplicationAccess row at that institution or an ancestor.
// The attribute rules are those of the nearest ApplicationAccess row, the same rule the Data API
// applies when it reads that institution, so a partner sees one person the same way through
// both interfaces (pseudonyms included).
import { database } from "@/lib/db";
import { combineAccessSettings, type TAttributeConfiguration } from "@/lib/server/data-api/privacy";

export type TApplicationAccess =
  | { enabled: true; configuration: TAttributeConfiguration }
  | { enabled: false; reason: "no_contract" | "not_enabled" };

interface Row {
  depth: number;
  linked: boolean;
  allowedAttributes: string[] | null;
  anonymizedAttributes: string[] | null;
}

// A cycle cannot be created through the services, but a bound keeps a bad row from looping.
const MAX_DEPTH = 64;

const ACCESS_SQL = `
WITH RECURSIVE up AS (
  SELECT i.id, i."parentId", 0 AS depth FROM "Institution" i WHERE i.id = $1::uuid
  UNION ALL
  SELECT p.id, p."parentId", up.depth + 1 FROM "Institution" p JOIN up ON p.id = up."parentId"
  WHERE up.depth < ${MAX_DEPTH}
)
SELECT up.depth,
       EXISTS (SELECT 1 FROM "EdtechLink" l WHERE l."institutionId" = up.id AND l."edtechId" = $2::uuid) AS linked,
       a."allowedAttributes", a."anonymizedAttributes"
  FROM up LEFT JOIN "ApplicationAccess" a ON a."institutionId" = up.id AND a."applicationId" = $3::uuid
 ORDER BY up.depth`;

export async function resolveApplicationAccess(options: {
  institutionId: string;
  application: { id: string; edtechId: string };
}): Promise<TApplicationAccess> {
  const rows = await database().sql.query<Row>(ACCESS_SQL, [options.institutionId, options.application.edtechId, options.application.id]);
  if (!rows.some((r) => r.linked)) return { enabled: false, reason: "no_contract" };
  const nearest = rows.find((r) => r.allowedAttributes !== null);
  if (!nearest) return { enabled: false, reason: "not_enabled" };
  return {
    enabled: true,
    configuration: combineAccessSettings([
      { allowedAttributes: nearest.allowedAttributes ?? [], anonymizedAttributes: nearest.anonymizedAttributes ?? [] },
    ]),
  };
}
