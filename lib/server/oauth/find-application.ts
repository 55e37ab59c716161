import { db } from "@/lib/server/db/database";
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
const MAX_CLIENT_ID_LENGTH = 256;

/** The registered application with this client_id, or null. */
export async function findApplication({ clientId }: { clientId: string | undefined }): Promise<TOAuthApplication | null> {
  if (!clientId || clientId.length > MAX_CLIENT_ID_LENGTH) return null;
  const app = await db().oAuthApplication.findUnique({
    where: { clientId },
    select: {
      id: true, edtechId: true, clientId: true, clientSecretHash: true, name: true, description: true,
      homepageUrl: true, redirectUris: true, defaultResponseType: true, edtech: { select: { name: true } },
    },
  });
  if (!app) return null;
  const { edtech, ...rest } = app;
  return { ...rest, edtechName: edtech.name };
}
