// GET /ims/oneroster/rostering/v1p2/… — the OneRoster 1.2 Rostering service, read side
// (lib/server/oneroster/read-rostering.ts, docs/oneroster.md).
import { NextResponse, type NextRequest } from "next/server";
import { readRostering } from "@/lib/server/oneroster/read-rostering";

type TContext = { params: Promise<{ path?: string[] }> };

export async function GET(request: NextRequest, context: TContext): Promise<NextResponse> {
  const answer = await readRostering({
    segments: (await context.params).path ?? [],
    query: request.nextUrl.searchParams,
    authorization: request.headers.get("authorization"),
  });
  return NextResponse.json(answer.body, { status: answer.status, headers: answer.headers });
}
