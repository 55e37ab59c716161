// GET /ims/oneroster/rostering/v1p2/… — the OneRoster 1.2 Rostering service, read side
// (lib/server/oneroster/read-rostering.ts, docs/oneroster.md). Also served by server.mjs without
// Next's router, with this same handler (instrumentation-node.ts, docs/decisions/021).
import { NextResponse, type NextRequest } from "next/server";
import { jsonInChunks } from "@/lib/server/http/json-text";
import { otherMethods } from "@/lib/server/http/other-methods";
import { readRostering, rosteringSegments } from "@/lib/server/oneroster/read-rostering";

export async function GET(request: NextRequest): Promise<NextResponse> {
  const answer = await readRostering({
    segments: rosteringSegments(request.nextUrl.pathname),
    query: request.nextUrl.searchParams,
    authorization: request.headers.get("authorization"),
  });
  // A page goes out as it is serialized, a hundred objects at a time (lib/server/http/json-text.ts).
  return new NextResponse(jsonInChunks(answer.body).stream(), { status: answer.status, headers: answer.headers });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
