import { NextResponse, type NextRequest } from "next/server";
import { OAuthError } from "@/lib/oauth/errors";
import { otherMethods } from "@/lib/server/http/other-methods";
import { issueServiceToken } from "@/lib/server/lti13/services";
import { NO_STORE } from "@/lib/server/oauth/no-store";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** POST /lti13/token: LTI Advantage service tokens (client credentials + RFC 7523 JWT assertion). */
export async function POST(request: NextRequest): Promise<Response> {
  try {
    if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
      throw new OAuthError("invalid_request", "send the request as application/x-www-form-urlencoded");
    }
    return NextResponse.json(await issueServiceToken(new URLSearchParams(await request.text())), { headers: NO_STORE });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return NextResponse.json(error.toJSON(), { status: error.status, headers: NO_STORE });
  }
}

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
