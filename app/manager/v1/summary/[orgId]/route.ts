import { NextResponse, type NextRequest } from "next/server";
import { toResponse } from "@/lib/errors";
import { summarizeEvents } from "@/lib/server/data-api/summarize-events";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const headers = { "Cache-Control": "no-store" };

/** Summary (docs/data-api.md): event counts per entity and kind, as the institution tree. */
export async function GET(request: NextRequest, context: { params: Promise<{ orgId: string }> }): Promise<NextResponse> {
  try {
    const { orgId } = await context.params;
    const body = await summarizeEvents({ apiKey: request.headers.get("x-api-key"), orgId, searchParams: request.nextUrl.searchParams });
    return NextResponse.json(body, { headers });
  } catch (error) {
    return toResponse(error, { headers });
  }
}
