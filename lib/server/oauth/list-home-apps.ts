// The application cards of the home page. The flow "may also start from the hub" (spec,
// authorization screen step 1): a card opens the application's home page as an OpenID Connect
// third-party initiated login (OIDC Core §4) with `iss` and `login_hint` = the current profile
// (as that application's pairwise id, which it may already know as a `sub`).
// The application then sends a normal authorization request (its own state, nonce and PKCE,
// passing login_hint on) and the hub completes it for that profile without asking again
// (decide-authorization.ts). The hub never sends an unsolicited code or token: a client could
// not tell it from one an attacker injected (RFC 9700 §4.7).
import { database } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import { effectiveAccess } from "@/lib/server/institution-tree/effective-access";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";
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
  /** One row per application and institution of the profile's chain (nearest first). */
  linked: boolean;
  hasRule: boolean;
}

// The applications with a home page whose edtech has a contract on the profile's chain, one row
// per institution of the chain; effectiveAccess decides which are enabled.
const HOME_APPS_SQL = `
WITH RECURSIVE ${treeCte("up", `(SELECT "institutionId" FROM "Profile" WHERE id = $1::uuid)`)}
SELECT a.id, a."clientId", a.name, a.description, a."homepageUrl", e.name AS "edtechName",
       EXISTS (SELECT 1 FROM "EdtechLink" l WHERE l."institutionId" = up.id AND l."edtechId" = a."edtechId") AS linked,
       EXISTS (SELECT 1 FROM "ApplicationAccess" x WHERE x."institutionId" = up.id AND x."applicationId" = a.id) AS "hasRule"
  FROM "OAuthApplication" a JOIN "Edtech" e ON e.id = a."edtechId" CROSS JOIN up
 WHERE a."homepageUrl" IS NOT NULL
   AND EXISTS (SELECT 1 FROM "EdtechLink" l JOIN up u ON l."institutionId" = u.id WHERE l."edtechId" = a."edtechId")
 ORDER BY a.name, a.id, up.depth`;

/** The enabled applications, each once, in the query's order. */
function enabledApplications(rows: Row[]): Row[] {
  const chains = new Map<string, Row[]>();
  for (const row of rows) chains.set(row.id, [...(chains.get(row.id) ?? []), row]);
  return [...chains.values()].filter((chain) => effectiveAccess(chain.map((r) => ({ linked: r.linked, rule: r.hasRule || null })), "application").enabled).map((chain) => chain[0]!);
}

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
  const rows = enabledApplications(await database().sql.query<Row>(HOME_APPS_SQL, [profileId]));
  const hints = await Promise.all(rows.map(async (row) => (await pairwiseIds({ kind: "application", id: row.id })).toPartner(profileId)));
  return rows.flatMap((row, i) => {
    const href = initiateLoginUrl(row.homepageUrl, hints[i]!);
    return href ? [{ clientId: row.clientId, name: row.name, description: row.description, edtechName: row.edtechName, href }] : [];
  });
}
