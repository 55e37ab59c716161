import type { NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { toResponse } from "@/lib/server/http/error-response";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { resolveManagerScope } from "@/lib/server/management/resolve-manager-scope";
import { usageCsv } from "@/lib/usage/usage";
import { getInstitutionUsage } from "./get-institution-usage";

/** GET /gestao/{institutionId}/uso/csv?de=&ate=: the usage page's numbers as a CSV download. */
export async function respondUsageCsv(request: NextRequest, institutionId: string): Promise<Response> {
  try {
    const user = await getRequestUser(request);
    if (!user?.profile) throw new AppError("unauthorized", "Sua sessão expirou. Entre novamente.");
    // Not a manager, or an institution out of reach: the same 404 as the pages.
    const scope = await resolveManagerScope({ personId: user.personId, profileId: user.profile.id }).catch(() => {
      throw new AppError("not_found", "Instituição não encontrada.");
    });
    const usage = await getInstitutionUsage({ scope, institutionId, query: Object.fromEntries(request.nextUrl.searchParams) });
    return new Response(usageCsv(usage.rows), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="uso-${usage.from}-a-${usage.to}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return toResponse(error, { headers: { "Cache-Control": "no-store" } });
  }
}
