// The application cards of the home page. The flow "may also start from the hub" (spec,
// authorization screen step 1): a card opens the application's home page as an OpenID Connect
// third-party initiated login (OIDC Core §4) with `iss` and `login_hint` = the current profile
// (as that application's pairwise id, which it may already know as a `sub`).
// The application then sends a normal authorization request (its own state, nonce and PKCE,
// passing login_hint on) and the hub completes it for that profile without asking again
// (decide-authorization.ts). The hub never sends an unsolicited code or token: a client could
// not tell it from one an attacker injected (RFC 9700 §4.7).
import { database } from "@/lib/db";
import { env } from "@/lib/env";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";

export interface THomeApp {
  clientId: string;
  name: string;
  description: string;
  edtechName: string;
  /** The application's home page with iss and login_hint. */
  href: string;
}

interface Row {
  id: string;
  clientId: string;
  name: string;
  description: string;
  homepageUrl: string;
  edtechName: string;
}

// Enabled = an ApplicationAccess row and an EdtechLink at the profile's institution or an
// ancestor (resolve-application-access.ts states the same rule for one application).
const HOME_APPS_SQL = `
WITH RECURSIVE up AS (
  SELECT i.id, i."parentId", 0 AS depth FROM "Institution" i
    JOIN "Profile" p ON p."institutionId" = i.id WHERE p.id = $1::uuid
  UNION ALL
  SELECT i.id, i."parentId", up.depth + 1 FROM "Institution" i JOIN up ON i.id = up."parentId" WHERE up.depth < 64
)
SELECT a.id, a."clientId", a.name, a.description, a."homepageUrl", e.name AS "edtechName"
  FROM "OAuthApplication" a JOIN "Edtech" e ON e.id = a."edtechId"
 WHERE a."homepageUrl" IS NOT NULL
   AND EXISTS (SELECT 1 FROM "ApplicationAccess" x JOIN up ON x."institutionId" = up.id WHERE x."applicationId" = a.id)
   AND EXISTS (SELECT 1 FROM "EdtechLink" l JOIN up ON l."institutionId" = up.id WHERE l."edtechId" = a."edtechId")
 ORDER BY a.name`;

/** Only http(s) home pages become links: a stored `javascript:` URL must never reach an href. */
function initiateLoginUrl(homepageUrl: string, profileId: string): string | null {
  try {
    const url = new URL(homepageUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    url.searchParams.set("iss", env().HUB_BASE_URL);
    url.searchParams.set("login_hint", profileId);
    return url.toString();
  } catch {
    return null;
  }
}

export async function listHomeApps({ profileId }: { profileId: string }): Promise<THomeApp[]> {
  const rows = await database().sql.query<Row>(HOME_APPS_SQL, [profileId]);
  const hints = await Promise.all(rows.map(async (row) => (await pairwiseIds({ kind: "application", id: row.id })).toPartner(profileId)));
  return rows.flatMap((row, i) => {
    const href = initiateLoginUrl(row.homepageUrl, hints[i]!);
    return href ? [{ clientId: row.clientId, name: row.name, description: row.description, edtechName: row.edtechName, href }] : [];
  });
}
