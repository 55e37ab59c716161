// Where an application has OneRoster switched on: the institutions whose own sharing rule row
// (ApplicationAccess) has `oneRoster`, kept when that row is in force there — the hub's one
// access rule (effectiveAccess via sharingRuleOf, docs/decisions/012): a contract (EdtechLink) of
// the application's edtech somewhere up the chain. At a row's own institution that row is the
// nearest one, so its `oneRoster` decides there; below it, it decides for every unit without a
// row of its own. The token endpoint issues a token when this list is not empty; the developer
// area shows it. Which institutions a call then reads is the read side's, per request.
import { database } from "@/lib/server/db/database";
import { ruleRowsColumnSql, sharingRuleOf, type TRuleRow } from "@/lib/server/privacy/resolve-sharing-rule";

export interface TOneRosterEnablement {
  institutionId: string;
  name: string;
  kind: "network" | "school";
}

// The application's rule rows with OneRoster on, each with the rule rows of its chain (the rule
// engine's own sub-select), in one statement.
const ENABLEMENTS_SQL = `
SELECT i.id AS "institutionId", i.name, i.kind::text AS kind,
       ${ruleRowsColumnSql("application", { institution: `r."institutionId"`, edtech: "$2::uuid", partner: "$1::uuid" })} AS "ruleRows"
  FROM "ApplicationAccess" r
  JOIN "Institution" i ON i.id = r."institutionId"
 WHERE r."applicationId" = $1::uuid AND r."oneRoster"`;

/** The institutions where the application's OneRoster is switched on and in force, networks first, then by name. */
export async function listOneRosterEnablements(application: { applicationId: string; edtechId: string }): Promise<TOneRosterEnablement[]> {
  const rows = await database().sql.query<TOneRosterEnablement & { ruleRows: TRuleRow[] }>(
    ENABLEMENTS_SQL, [application.applicationId, application.edtechId], { prepared: true },
  );
  return rows
    .filter((row) => sharingRuleOf(row.ruleRows, "application", null).enabled)
    .map(({ institutionId, name, kind }) => ({ institutionId, name, kind }))
    .sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name, "pt-BR") : a.kind === "network" ? -1 : 1));
}
