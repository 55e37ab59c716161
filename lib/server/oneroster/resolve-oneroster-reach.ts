// Which institutions an application reads through OneRoster, and the sharing rule of each. It is
// the hub's one access rule (effectiveAccess, docs/decisions/012-one-sharing-rule.md) applied to
// every institution the application's rule rows reach: an institution is read when the rule that
// applies there (the nearest ApplicationAccess row up the tree) has OneRoster on and the edtech has
// a contract on the chain. Each institution's people then get that institution's own rule, role by
// role, as user info, the id token and a launch give them (docs/oneroster.md, "Privacidade").
import { database } from "@/lib/server/db/database";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { combineRuleSettings, ruleSettingsOf, type TRoleConfigurations, type TRuleSettings } from "@/lib/server/data-api/privacy";
import { PERSONAL_ATTRIBUTES } from "@/lib/validations/data-api";
import { effectiveAccess } from "@/lib/server/institution-tree/effective-access";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";

export interface TReachedInstitution {
  id: string;
  name: string;
  kind: "network" | "school";
  /** The parent when the application reads it too, else null. */
  parentId: string | null;
  updatedAt: Date;
  /** The rule each role's people are shown with. */
  configurations: TRoleConfigurations;
}

export interface TOneRosterReach {
  /** Every institution read, parents before children. */
  institutions: ReadonlyMap<string, TReachedInstitution>;
  ids: readonly string[];
}

interface TRow {
  id: string;
  name: string;
  kind: "network" | "school";
  parentId: string | null;
  updatedAt: Date;
  linked: boolean;
  allowedAttributes: string[] | null;
  anonymizedAttributes: string[] | null;
  roleOverrides: unknown;
  oneRoster: boolean | null;
}

/** The application, from the `app` CTE of REACH_SQL. */
const APP = `(SELECT app.id FROM app)`;
const ROOTS = `ANY(ARRAY(SELECT a."institutionId" FROM "ApplicationAccess" a WHERE a."applicationId" = ${APP}))`;

// The application whose client id is $1 and, as before, the institutions its rule rows stand at,
// their ancestors (where a contract may be) and their descendants (which the rows cover), each
// with the application's row there. The application is looked up here, not by the bearer check
// before it: one round trip less per read. Each row carries the application; one row without an
// institution when it reaches none, none when the application no longer exists.
const REACH_SQL = `
WITH RECURSIVE app AS (SELECT a.id, a."edtechId" FROM "OAuthApplication" a WHERE a."clientId" = $1),
${treeCte("up", ROOTS)}, ${treeCte("down", ROOTS)},
t AS (SELECT id, depth FROM up UNION ALL SELECT id, depth FROM down),
reach AS (
SELECT i.id, i.name, i.kind::text AS kind, i."parentId", i."updatedAt",
       EXISTS (SELECT 1 FROM "EdtechLink" l WHERE l."institutionId" = i.id AND l."edtechId" = (SELECT app."edtechId" FROM app)) AS linked,
       a."allowedAttributes", a."anonymizedAttributes", a."roleOverrides", a."oneRoster"
  FROM (SELECT DISTINCT id FROM t) r
  JOIN "Institution" i ON i.id = r.id
  LEFT JOIN "ApplicationAccess" a ON a."institutionId" = i.id AND a."applicationId" = ${APP})
SELECT app.id AS "applicationId", app."edtechId", reach.* FROM app LEFT JOIN reach ON true`;

type TLevel = { id: string; linked: boolean; rule: (TRuleSettings & { oneRoster: boolean }) | null };

/** An application, and what it reads through OneRoster. */
export interface TApplicationReach {
  application: { id: string; edtechId: string };
  reach: TOneRosterReach;
}

/**
 * The application with this client id and the institutions it reads through OneRoster now (read
 * on every request: a changed rule holds on the next call); null when the application no longer
 * exists.
 */
export async function resolveOneRosterReach({ clientId }: { clientId: string }): Promise<TApplicationReach | null> {
  const [found] = await Promise.all([
    database().sql.query<(TRow | { [K in keyof TRow]: null }) & { applicationId: string; edtechId: string }>(REACH_SQL, [clientId], { prepared: true }),
    // The rule's pseudonyms are made synchronously from the identity roots (ADR 014).
    loadIdentityRoots(),
  ]);
  const [first] = found;
  if (!first) return null;
  const rows = found.filter((row): row is TRow & { applicationId: string; edtechId: string } => row.id !== null);
  return { application: { id: first.applicationId, edtechId: first.edtechId }, reach: reachOf(rows) };
}

/** The institutions read, from the reach's rows: where the rule that applies has OneRoster on and the edtech a contract on the chain. */
function reachOf(rows: TRow[]): TOneRosterReach {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const levels = new Map<string, TLevel>(
    rows.map((row) => {
      const settings = ruleSettingsOf(row);
      return [row.id, { id: row.id, linked: row.linked, rule: settings && { ...settings, oneRoster: row.oneRoster === true } }];
    }),
  );
  const chainOf = (id: string): TLevel[] => {
    const chain: TLevel[] = [];
    for (let at: string | null = id, steps = 0; at !== null && steps < 64; steps++) {
      const level = levels.get(at);
      if (!level) break;
      chain.push(level);
      at = byId.get(at)!.parentId;
    }
    return chain;
  };
  const reached = new Map<string, TReachedInstitution>();
  for (const row of rows) {
    const access = effectiveAccess(chainOf(row.id), "application");
    const rule = access.ruleLevel?.rule;
    if (!access.enabled || !rule?.oneRoster) continue;
    reached.set(row.id, {
      id: row.id,
      name: row.name,
      kind: row.kind,
      parentId: row.parentId,
      updatedAt: new Date(row.updatedAt),
      configurations: combineRuleSettings([rule]),
    });
  }
  for (const institution of reached.values()) if (institution.parentId && !reached.has(institution.parentId)) institution.parentId = null;
  // Parents before children, then by name: the order orgs are listed in.
  const depth = (id: string): number => {
    const parent = reached.get(id)?.parentId;
    return parent ? 1 + depth(parent) : 0;
  };
  const ids = [...reached.keys()].sort((a, b) => depth(a) - depth(b) || reached.get(a)!.name.localeCompare(reached.get(b)!.name, "pt-BR") || a.localeCompare(b));
  return { institutions: new Map(ids.map((id) => [id, reached.get(id)!])), ids };
}

/** Every attribute in plain: the manager reads the institution's own data. */
const EVERYTHING = combineRuleSettings([{ allowedAttributes: [...PERSONAL_ATTRIBUTES], anonymizedAttributes: [], roleOverrides: {} }]);

const SUBTREE_SQL = `WITH RECURSIVE ${treeCte("down", "$1::uuid")}
SELECT d.id, d.name, d.kind, d."parentId", i."updatedAt" FROM down d JOIN "Institution" i ON i.id = d.id ORDER BY d.depth, d.path`;

/** An institution and its descendants as its manager exports them (docs/oneroster.md, "CSV"): everything, in plain. */
export async function resolveSubtreeReach(institutionId: string): Promise<TOneRosterReach> {
  const rows = await database().sql.query<Pick<TRow, "id" | "name" | "kind" | "parentId" | "updatedAt">>(SUBTREE_SQL, [institutionId]);
  const institutions = new Map<string, TReachedInstitution>(
    rows.map((row, i) => [
      row.id,
      { id: row.id, name: row.name, kind: row.kind, parentId: i === 0 ? null : row.parentId, updatedAt: new Date(row.updatedAt), configurations: EVERYTHING },
    ]),
  );
  return { institutions, ids: rows.map((row) => row.id) };
}
