// GET /ims/oneroster/csv/v1p2/export: what an application may read through OneRoster, as the 1.2
// CSV binding's bulk zip. Authorised exactly as the REST binding (verify-bearer.ts): the core
// files need roster.readonly or roster-core.readonly; demographics.csv is in the zip only when the
// token also reads demographics. Errors are the binding's status payload with its challenge.
import { ONEROSTER_SCOPES } from "@/lib/oneroster/scopes";
import { openRosteringExport } from "./export-rostering";
import { oneRosterRefusal } from "./read-rostering";
import { rosteringZipResponse } from "./rostering-zip";
import { requireScope, verifyOneRosterBearer } from "./verify-bearer";

export async function respondCsvExport(authorization: string | null): Promise<Response> {
  try {
    const client = await verifyOneRosterBearer(authorization);
    requireScope(client, [ONEROSTER_SCOPES.roster, ONEROSTER_SCOPES.rosterCore]);
    // As the REST binding's demographics endpoint: roster.readonly is "all of the read operations (excluding demographics)".
    const demographics = client.scopes.has(ONEROSTER_SCOPES.rosterDemographics);
    const source = await openRosteringExport({ kind: "application", clientId: client.clientId });
    return rosteringZipResponse(source, { demographics, name: client.clientId });
  } catch (error) {
    const refusal = oneRosterRefusal(error, "OneRoster CSV export failed");
    return Response.json(refusal.body, { status: refusal.status, headers: refusal.headers });
  }
}
