import type { NextRequest } from "next/server";
import { signInWithPassword } from "@/lib/server/auth/sign-in-with-password";
import { writeSession } from "@/lib/server/auth/session-cookie";
import { clientIp } from "@/lib/server/http/client-ip";
import { handleFormPost, seeOther } from "@/lib/server/http/form-post";
import { safeCallbackUrl } from "@/lib/server/http/safe-callback-url";

export const dynamic = "force-dynamic";

/** The sign-in form's POST (works without JavaScript): signs in, then on to the profile picker. */
export function POST(request: NextRequest): Promise<Response> {
  return handleFormPost(request, async (form) => {
    const callbackUrl = safeCallbackUrl(form.get("callbackUrl"));
    const result = await signInWithPassword({ login: form.get("login") ?? "", password: form.get("password") ?? "", ip: clientIp(request.headers) });
    if (!result.ok) return seeOther(`/login?${new URLSearchParams({ error: result.error, callbackUrl })}`);
    return writeSession(seeOther(`/perfil?${new URLSearchParams({ callbackUrl })}`), result.token);
  });
}
