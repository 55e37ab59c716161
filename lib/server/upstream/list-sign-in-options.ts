import { database } from "@/lib/server/db/database";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";
import { emailDomain, PROVIDER_PRESETS, type TProviderKind } from "@/lib/upstream/presets";

export interface TSignInOption {
  providerId: string;
  kind: TProviderKind;
  /** "Google", with the network's name when another network's provider has the same name. */
  name: string;
  /** The sign-in button: "Entrar com " and the name. */
  label: string;
  allowedDomains: string[];
}

interface TRow {
  id: string;
  kind: TProviderKind;
  name: string;
  networkName: string;
  allowedDomains: string[];
}

// Enabled providers of the institution and its ancestors (resolved up the tree like the sharing
// rules), or of every network when the page is not a school's own.
const FOR_INSTITUTION_SQL = `WITH RECURSIVE ${treeCte("up", "$1::uuid")}
SELECT ip.id, ip.kind::text AS kind, ip.name, up.name AS "networkName", ip."allowedDomains"
  FROM "IdentityProvider" ip JOIN up ON up.id = ip."institutionId"
 WHERE ip.enabled ORDER BY up.depth, ip.kind, ip."createdAt"`;
const ALL_SQL = `SELECT ip.id, ip.kind::text AS kind, ip.name, i.name AS "networkName", ip."allowedDomains"
  FROM "IdentityProvider" ip JOIN "Institution" i ON i.id = ip."institutionId"
 WHERE ip.enabled ORDER BY i.name, ip.kind, ip."createdAt"`;

/**
 * The "Entrar com …" buttons of the sign-in page: a school's own link (`/login?escola=…`) shows its
 * networks' providers only; the hub's page shows every enabled one.
 */
export async function listSignInOptions(options: { institutionId?: string | null } = {}): Promise<TSignInOption[]> {
  const sql = database().sql;
  return toOptions(options.institutionId ? await sql.query<TRow>(FOR_INSTITUTION_SQL, [options.institutionId]) : await sql.query<TRow>(ALL_SQL, []));
}

/** Buttons' labels: the provider's name, and its network's when two networks name theirs alike. */
function toOptions(rows: TRow[]): TSignInOption[] {
  const perKind = new Map<string, number>();
  for (const r of rows) perKind.set(r.kind + r.name, (perKind.get(r.kind + r.name) ?? 0) + 1);
  return rows.map((r) => {
    const name = `${r.name || PROVIDER_PRESETS[r.kind].label}${(perKind.get(r.kind + r.name) ?? 0) > 1 ? ` (${r.networkName})` : ""}`;
    return { providerId: r.id, kind: r.kind, name, label: `Entrar com ${name}`, allowedDomains: r.allowedDomains };
  });
}

/**
 * Home-realm discovery: the one provider among `options` whose allowed domains hold the e-mail's
 * domain, or null (none, or several networks claim it: the person picks a button instead).
 */
export function providerForEmail(options: readonly TSignInOption[], email: string): TSignInOption | null {
  const domain = emailDomain(email);
  if (!domain) return null;
  const matches = options.filter((o) => o.allowedDomains.includes(domain));
  return matches.length === 1 ? (matches[0] ?? null) : null;
}

// The walk starts at every institution the person has a profile in.
const FOR_PERSON_SQL = `WITH RECURSIVE ${treeCte("up", `ANY (SELECT p."institutionId" FROM "Profile" p WHERE p."personId" = $1::uuid)`)}
SELECT DISTINCT ip.id, ip.kind::text AS kind, ip.name, i.name AS "networkName", ip."allowedDomains", ip."createdAt"
  FROM "IdentityProvider" ip JOIN "Institution" i ON i.id = ip."institutionId"
 WHERE ip.enabled AND ip."institutionId" IN (SELECT id FROM up)
 ORDER BY ip."createdAt"`;

/** The enabled providers of every network the person has a profile in: what "Meus dados" offers to link. */
export async function listLinkableProviders(options: { personId: string }): Promise<TSignInOption[]> {
  return toOptions(await database().sql.query<TRow>(FOR_PERSON_SQL, [options.personId]));
}
