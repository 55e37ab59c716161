import { readClientCredentials } from "@/lib/oauth/client-auth";
import { OAuthError } from "@/lib/oauth/errors";
import { hashSecret, safeEqual } from "@/lib/oauth/secret";
import { database } from "@/lib/server/db/database";
import { CODE_ROW_SQL, type TCodeRow } from "./exchange-code";
import { APPLICATION_SQL, findApplication, MAX_CLIENT_ID_LENGTH, type TOAuthApplication } from "./find-application";

// Compared against when the client_id is unknown, so an unknown client costs the same time as a
// known one with a wrong secret (no client_id enumeration by timing).
const DUMMY_HASH = hashSecret("hub/unknown-client");

// The client and the code it presents, in one prepared statement: the token exchange's first read.
const CLIENT_AND_CODE_SQL = `
SELECT a.*, (SELECT row_to_json(c) FROM (${CODE_ROW_SQL.replace("$1", "$2")}) c) AS code
  FROM (${APPLICATION_SQL}) a`;

/**
 * RFC 6749 §2.3.1 client authentication at the token endpoint: HTTP Basic or client_id +
 * client_secret in the body. Unknown client or wrong secret → invalid_client (401). Reads in the
 * same round trip the row of the authorization code the request carries (`code`: the body's code
 * as sent, before the grant is validated; null when there is no such code). Only a client that
 * authenticated gets the row.
 */
export async function authenticateClient(input: {
  authorizationHeader: string | null;
  body: Readonly<Record<string, unknown>>;
  code: string | undefined;
}): Promise<{ application: TOAuthApplication; code?: TCodeRow | null } | OAuthError> {
  const credentials = readClientCredentials({ authorizationHeader: input.authorizationHeader, body: input.body });
  if (credentials instanceof OAuthError) return credentials;
  let application: TOAuthApplication | null;
  let code: TCodeRow | null | undefined;
  if (input.code === undefined || !credentials.clientId || credentials.clientId.length > MAX_CLIENT_ID_LENGTH) {
    application = await findApplication({ clientId: credentials.clientId });
  } else {
    const [row] = await database().sql.query<TOAuthApplication & { code: (Omit<TCodeRow, "expiresAt"> & { expiresAt: string }) | null }>(
      CLIENT_AND_CODE_SQL, [credentials.clientId, hashSecret(input.code)], { prepared: true },
    );
    if (row) {
      const { code: found, ...rest } = row;
      application = rest;
      code = found && { ...found, expiresAt: new Date(found.expiresAt) };
    } else application = null;
  }
  const matches = safeEqual(hashSecret(credentials.clientSecret), application?.clientSecretHash ?? DUMMY_HASH);
  if (!application || !matches) return new OAuthError("invalid_client", "Client authentication failed");
  return { application, code };
}
