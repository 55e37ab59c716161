import { NextResponse, type NextRequest } from "next/server";
import { OAuthError } from "@/lib/oauth/errors";
import { otherMethods } from "@/lib/server/http/other-methods";
import { listMemberships, NRPS_MEDIA_TYPE } from "@/lib/server/lti13/services";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /lti13/memberships/{classId}: NRPS 2.0 membership container, paged with Link rel="next". */
export async function GET(request: NextRequest, { params }: { params: Promise<{ classId: string }> }): Promise<Response> {
  const { classId } = await params;
  try {
    const page = await listMemberships({ authorization: request.headers.get("authorization"), classId, query: request.nextUrl.searchParams });
    const headers = new Headers({ "Content-Type": NRPS_MEDIA_TYPE, "Cache-Control": "no-store" });
    if (page.next) headers.set("Link", `<${page.next}>; rel="next"`);
    return new Response(JSON.stringify(page.body), { status: 200, headers });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const headers: Record<string, string> = { "Cache-Control": "no-store" };
    // RFC 6750 §3: a refused bearer token says why in WWW-Authenticate.
    if (error.status === 401 || error.code === "insufficient_scope") headers["WWW-Authenticate"] = `Bearer error="${error.code}"`;
    return NextResponse.json(error.toJSON(), { status: error.status, headers });
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
