import { NextResponse, type NextRequest } from "next/server";
import { toResponse } from "@/lib/errors";
import { readDataPage } from "@/lib/server/data-api/read-data-page";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const headers = { "Cache-Control": "no-store" };

/** /manager/v1/data without org_id: 401 for a bad key first, else 400 (spec: org_id not informed). */
export async function GET(request: NextRequest): Promise<NextResponse> {
  try {
    const body = await readDataPage({ apiKey: request.headers.get("x-api-key"), orgId: undefined, searchParams: request.nextUrl.searchParams });
    return NextResponse.json(body, { headers });
  } catch (error) {
    return toResponse(error, { headers });
  }
}
