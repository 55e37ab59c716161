import type { NextRequest } from "next/server";
import { readSession } from "@/lib/server/auth/session-cookie";
import { handleFormPost, seeOther } from "@/lib/server/http/form-post";
import { otherMethods } from "@/lib/server/http/other-methods";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { unlinkUpstreamAccount } from "@/lib/server/upstream/unlink-upstream-account";

export const dynamic = "force-dynamic";

/** "Desvincular" on "Meus dados" (a plain form, works without JavaScript): the person's own account only. */
export function POST(request: NextRequest): Promise<Response> {
  return handleFormPost(request, async (form) => {
    const session = await readSession(request);
    if (!session?.sub) return seeOther(withCallbackUrl("/login", "/meus-dados"));
    await unlinkUpstreamAccount({ personId: session.sub, accountId: form.get("accountId") ?? "" });
    return seeOther("/meus-dados?conta=desvinculada#contas-vinculadas");
  });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
