import type { NextRequest } from "next/server";
import { writeSession } from "@/lib/server/auth/session-cookie";
import { handleFormPost, seeOther } from "@/lib/server/http/form-post";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

/** The header's "Sair" form: ends the session and returns home. */
export function POST(request: NextRequest): Promise<Response> {
  return handleFormPost(request, () => writeSession(seeOther("/"), null));
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
