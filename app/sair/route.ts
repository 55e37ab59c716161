import type { NextRequest } from "next/server";
import { writeSession } from "@/lib/server/auth/session-cookie";
import { handleFormPost, seeOther } from "@/lib/server/http/form-post";

export const dynamic = "force-dynamic";

/** The header's "Sair" form: ends the session and returns home. */
export function POST(request: NextRequest): Promise<Response> {
  return handleFormPost(request, () => writeSession(seeOther("/"), null));
}
