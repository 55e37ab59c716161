// GET /ims/oneroster/csv/v1p2/export — the OneRoster 1.2 CSV binding's bulk zip of what the
// token's application reads (lib/server/oneroster/respond-csv-export.ts, docs/oneroster.md).
import type { NextRequest } from "next/server";
import { otherMethods } from "@/lib/server/http/other-methods";
import { respondCsvExport } from "@/lib/server/oneroster/respond-csv-export";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: NextRequest): Promise<Response> {
  return respondCsvExport(request.headers.get("authorization"));
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
