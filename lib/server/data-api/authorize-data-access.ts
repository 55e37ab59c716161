// Who may read an institution's data, checked in the order DESIGN.md fixes (each step one rule):
//   1. x-api-key missing, unknown or revoked        → 401 {"message":"Unauthorized"}
//   2. org_id missing or not a UUID                 → 400
//   3. no such institution                          → 404
//   4. the key's edtech has no EdtechLink to the
//      institution or any ancestor                  → 401 {"message":"Unauthorized"}
//   5. the key's application has no ApplicationAccess
//      at the institution or any ancestor           → 403
// Links and access rows are inherited down the tree; a read of a network covers its whole subtree
// (docs/data-api.md, "Escopo").
import { database } from "@/lib/server/db/database";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { AppError } from "@/lib/errors";
import { verifyApiKey, type TVerifiedApiKey } from "@/lib/server/api-keys/verify-api-key";
import { effectiveAccess } from "@/lib/server/institution-tree/effective-access";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";
import { ZOrgIdSchema } from "@/lib/validations/data-api";
import { logDataAccess, type TDataAccessLogEntry } from "./log-data-access";
import { combineRuleSettings, ruleSettingsOf, type TRoleConfigurations, type TRuleSettings } from "./privacy";
import type { TFeedView } from "./query-events";

export interface TInstitutionNode {
  id: string;
  name: string;
  kind: "network" | "school";
  parentId: string | null;
}

/** Who reads: an application, through one of its keys or (the webhook deliverer) as itself. */
export type TDataReader = Pick<TVerifiedApiKey, "applicationId" | "edtechId">;

export interface TDataAccessGrant {
  key: TDataReader;
  institution: TInstitutionNode;
  /** The institution first, then its descendants (parents before children). */
  subtree: TInstitutionNode[];
  /** Per role, the attribute rules that hold for every institution of the subtree. */
  configurations: TRoleConfigurations;
  /** Which events of the log the application is shown (query-events.ts, TFeedView). */
  view: TFeedView;
}

interface TreeRow {
  rel: "up" | "down";
  id: string;
  name: string;
  kind: "network" | "school";
  parentId: string | null;
  depth: number;
  linked: boolean;
  allowedAttributes: string[] | null;
  anonymizedAttributes: string[] | null;
  roleOverrides: unknown;
  grantedTxid: string | null;
}

// One round trip: the ancestor chain (with link and access flags) and the descendants (with
// their own access rows).
const TREE_SQL = `
WITH RECURSIVE ${treeCte("up", "$1::uuid")}, ${treeCte("down", "$1::uuid")}
SELECT 'up' AS rel, t.id, t.name, t.kind, t."parentId", t.depth,
       EXISTS (SELECT 1 FROM "EdtechLink" l WHERE l."institutionId" = t.id AND l."edtechId" = $2::uuid) AS linked,
       a."allowedAttributes", a."anonymizedAttributes", a."roleOverrides", a."grantedTxid"::text AS "grantedTxid"
  FROM up t LEFT JOIN "ApplicationAccess" a ON a."institutionId" = t.id AND a."applicationId" = $3::uuid
UNION ALL
SELECT 'down', t.id, t.name, t.kind, t."parentId", t.depth, false,
       a."allowedAttributes", a."anonymizedAttributes", a."roleOverrides", a."grantedTxid"::text
  FROM down t LEFT JOIN "ApplicationAccess" a ON a."institutionId" = t.id AND a."applicationId" = $3::uuid
 WHERE t.depth > 0
ORDER BY 1 DESC, 6, 3`;

function parseOrgId(orgId: string | undefined): string {
  if (orgId === undefined || orgId === "") {
    throw new AppError("bad_request", "Parâmetro obrigatório: org_id", { org_id: "informe o identificador da instituição" });
  }
  const parsed = ZOrgIdSchema.safeParse(orgId);
  if (!parsed.success) throw new AppError("bad_request", "Parâmetro inválido: org_id", { org_id: "org_id deve ser um UUID" });
  return parsed.data;
}

const node = (r: TreeRow): TInstitutionNode => ({ id: r.id, name: r.name, kind: r.kind, parentId: r.parentId });

export type TDataAccessResolution =
  | { status: "not_found" }
  | { status: "no_contract"; institution: TInstitutionNode }
  | { status: "not_enabled"; institution: TInstitutionNode }
  | { status: "ok"; institution: TInstitutionNode; subtree: TInstitutionNode[]; configurations: TRoleConfigurations; view: TFeedView };

const earlier = (a: string | null, b: string | null): string | null => (a === null ? b : b === null || BigInt(a) <= BigInt(b) ? a : b);

/**
 * Where the application's access to each institution of the subtree began: the earliest grant
 * among the access rows of the institution and its ancestors (any of them opens its data to the
 * application). For a network read each school's events are thus cut at that school's own start,
 * the same as when the school is read on its own (docs/decisions/016).
 */
function grantedTxids(up: TreeRow[], descendants: TreeRow[]): Record<string, string> {
  const fromAbove = up.reduce<string | null>((min, r) => earlier(min, r.grantedTxid), null) ?? "0";
  const grants: Record<string, string> = { [up[0]!.id]: fromAbove };
  // Parents come before their children (TREE_SQL orders by depth).
  for (const d of descendants) grants[d.id] = earlier(grants[d.parentId!] ?? fromAbove, d.grantedTxid)!;
  return grants;
}

/**
 * Steps 3–5 for an application, without a key: also what the manager's "what this application
 * sees" preview uses, so the preview and the Data API cannot disagree.
 */
export async function resolveDataAccess(options: { orgId: string; edtechId: string; applicationId: string }): Promise<TDataAccessResolution> {
  // The identity roots the filter's pseudonyms need, read with the rule as resolveSharingRule does.
  const [rows] = await Promise.all([
    database().sql.query<TreeRow>(TREE_SQL, [options.orgId, options.edtechId, options.applicationId], { prepared: true }),
    loadIdentityRoots(),
  ]);
  const up = rows.filter((r) => r.rel === "up"); // by depth: the institution, its parent, ...
  const self = up[0];
  if (!self || self.depth !== 0) return { status: "not_found" };
  const institution = node(self);
  const access = effectiveAccess(up.map((r) => ({ linked: r.linked, rule: ruleSettingsOf(r) })), "application");
  if (!access.enabled) return { status: access.reason, institution };
  const inherited = access.ruleLevel!.rule!; // an enabled application has a rule row
  const descendants = rows.filter((r) => r.rel === "down");
  const own = descendants.map(ruleSettingsOf).filter((s): s is TRuleSettings => s !== null);
  // Per role, the most restrictive of the rule that applies here and every descendant's own one
  // (docs/decisions/015-sharing-rules-per-role.md); an update is delivered only if it changed an
  // attribute the record's role lets the application see.
  const configurations = combineRuleSettings([inherited, ...own]);
  const view: TFeedView = { grantedTxid: grantedTxids(up, descendants), visible: (role) => configurations[role].allowed };
  return { status: "ok", institution, subtree: [institution, ...descendants.map(node)], configurations, view };
}

export async function authorizeDataAccess(options: {
  apiKey: string | null | undefined;
  /** Already known (the webhook deliverer reads as its endpoint's application): step 1 is skipped. */
  reader?: TDataReader;
  orgId: string | undefined;
  /** When given, refusals after the institution is known are recorded in DataAccessLog. */
  audit?: Pick<TDataAccessLogEntry, "endpoint" | "filters">;
}): Promise<TDataAccessGrant> {
  const key = options.reader ?? (await verifyApiKey({ key: options.apiKey }));
  const orgId = parseOrgId(options.orgId);
  const access = await resolveDataAccess({ orgId, edtechId: key.edtechId, applicationId: key.applicationId });
  if (access.status === "not_found") throw new AppError("not_found", "Instituição não encontrada.");
  const refuse = (error: AppError): never => {
    if (options.audit) logDataAccess({ ...options.audit, applicationId: key.applicationId, institutionId: access.institution.id, status: error.status });
    throw error;
  };
  if (access.status === "no_contract") return refuse(new AppError("unauthorized", "Unauthorized"));
  if (access.status === "not_enabled") return refuse(new AppError("forbidden", "A aplicação não tem relação com esta instituição."));
  return { key, institution: access.institution, subtree: access.subtree, configurations: access.configurations, view: access.view };
}
