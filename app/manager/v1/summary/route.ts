import { NextResponse, type NextRequest } from "next/server";
import { toResponse } from "@/lib/errors";
import { summarizeEvents } from "@/lib/server/data-api/summarize-events";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const headers = { "Cache-Control": "no-store" };

/** /manager/v1/summary without org_id: 401 for a bad key first, else 400. */
export async function GET(request: NextRequest): Promise<NextResponse> {
  try {
    const body = await summarizeEvents({ apiKey: request.headers.get("x-api-key"), orgId: undefined, searchParams: request.nextUrl.searchParams });
    return NextResponse.json(body, { headers });
  } catch (error) {
    return toResponse(error, { headers });
  }
}
