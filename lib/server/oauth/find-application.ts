import { database } from "@/lib/server/db/database";
import type { ResponseType } from "@/lib/generated/prisma/client";

export interface TOAuthApplication {
  id: string;
  edtechId: string;
  edtechName: string;
  clientId: string;
  clientSecretHash: string;
  name: string;
  description: string;
  homepageUrl: string | null;
  redirectUris: string[];
  defaultResponseType: ResponseType;
}

/** Client ids are short identifiers; anything longer cannot be registered, so skip the query. */
export const MAX_CLIENT_ID_LENGTH = 256;

// Raw SQL, prepared on PostgreSQL: every token request starts here (docs/decisions/021).
/** The application by client_id ($1), as TOAuthApplication. */
export const APPLICATION_SQL = `
SELECT a.id, a."edtechId", e.name AS "edtechName", a."clientId", a."clientSecretHash", a.name, a.description,
       a."homepageUrl", a."redirectUris", a."defaultResponseType"
  FROM "OAuthApplication" a JOIN "Edtech" e ON e.id = a."edtechId"
 WHERE a."clientId" = $1`;

/** The registered application with this client_id, or null. */
export async function findApplication({ clientId }: { clientId: string | undefined }): Promise<TOAuthApplication | null> {
  if (!clientId || clientId.length > MAX_CLIENT_ID_LENGTH) return null;
  const [app] = await database().sql.query<TOAuthApplication>(APPLICATION_SQL, [clientId], { prepared: true });
  return app ?? null;
}
