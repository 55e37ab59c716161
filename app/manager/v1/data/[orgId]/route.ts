import { NextResponse, type NextRequest } from "next/server";
import { toResponse } from "@/lib/errors";
import { readDataPage } from "@/lib/server/data-api/read-data-page";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const headers = { "Cache-Control": "no-store" };

/** Data API (docs/data-api.md): school changes as events, one page per call. */
export async function GET(request: NextRequest, context: { params: Promise<{ orgId: string }> }): Promise<NextResponse> {
  try {
    const { orgId } = await context.params;
    const body = await readDataPage({ apiKey: request.headers.get("x-api-key"), orgId, searchParams: request.nextUrl.searchParams });
    return NextResponse.json(body, { headers });
  } catch (error) {
    return toResponse(error, { headers });
  }
}
