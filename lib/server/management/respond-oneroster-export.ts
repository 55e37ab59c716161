import type { NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { toResponse } from "@/lib/server/http/error-response";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { openRosteringExport } from "@/lib/server/oneroster/export-rostering";
import { rosteringZipResponse } from "@/lib/server/oneroster/rostering-zip";
import { requireInReach } from "./require-in-reach";
import { resolveManagerScope } from "./resolve-manager-scope";

/**
 * GET /gestao/{institutionId}/importar/oneroster: the institution's subtree as a OneRoster 1.2 CSV
 * bulk zip, in plain and with the Hub's ids (what the import reads back unchanged).
 */
export async function respondOneRosterExport(request: NextRequest, institutionId: string): Promise<Response> {
  try {
    const user = await getRequestUser(request);
    if (!user?.profile) throw new AppError("unauthorized", "Sua sessão expirou. Entre novamente.");
    // Not a manager, or an institution out of reach: the same 404 as the pages.
    const scope = await resolveManagerScope({ personId: user.personId, profileId: user.profile.id }).catch(() => {
      throw new AppError("not_found", "Instituição não encontrada.");
    });
    const institution = requireInReach({ scope, institutionId });
    const source = await openRosteringExport({ kind: "manager", institutionId: institution.id });
    return rosteringZipResponse(source, { demographics: true, name: institution.name });
  } catch (error) {
    return toResponse(error, { headers: { "Cache-Control": "no-store" } });
  }
}
