import type { NextRequest } from "next/server";
import { signInWithPassword } from "@/lib/server/auth/sign-in-with-password";
import { writeSession } from "@/lib/server/auth/session-cookie";
import { clientAddress } from "@/lib/server/http/stamped-client-address";
import { handleFormPost, seeOther } from "@/lib/server/http/form-post";
import { safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

/** The sign-in form's POST (works without JavaScript): signs in, then on to the profile picker. */
export function POST(request: NextRequest): Promise<Response> {
  return handleFormPost(request, async (form) => {
    const callbackUrl = safeCallbackUrl(form.get("callbackUrl"));
    const result = await signInWithPassword({ login: form.get("login") ?? "", password: form.get("password") ?? "", ip: clientAddress(request.headers) ?? "local" });
    if (!result.ok) return seeOther(withCallbackUrl("/login", callbackUrl, { error: result.error }));
    return writeSession(seeOther(withCallbackUrl("/perfil", callbackUrl)), result.token);
  });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
