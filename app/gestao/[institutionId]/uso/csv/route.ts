import type { NextRequest } from "next/server";
import { otherMethods } from "@/lib/server/http/other-methods";
import { respondUsageCsv } from "@/lib/server/usage/respond-usage-csv";

export const dynamic = "force-dynamic";

/** The usage page's numbers as CSV. */
export async function GET(request: NextRequest, { params }: { params: Promise<{ institutionId: string }> }): Promise<Response> {
  return respondUsageCsv(request, (await params).institutionId);
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
