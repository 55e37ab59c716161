import type { NextRequest } from "next/server";
import { choosePageAfterSignIn } from "@/lib/server/auth/choose-page-after-sign-in";
import { signInWithPassword } from "@/lib/server/auth/sign-in-with-password";
import { writeSession } from "@/lib/server/auth/session-cookie";
import { clientAddress } from "@/lib/server/http/stamped-client-address";
import { handleFormPost, seeOther } from "@/lib/server/http/form-post";
import { safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { otherMethods } from "@/lib/server/http/other-methods";
import { escolaParam, findUpstreamForLogin } from "@/lib/server/upstream/find-upstream-for-login";

export const dynamic = "force-dynamic";

/**
 * The sign-in form's POST (works without JavaScript): signs in, then on to the callback URL, or to
 * the profile picker first when the person needs it (choosePageAfterSignIn: the rules /perfil
 * applies, without that extra request); or, for an e-mail of a network that signs in with its own
 * provider, on to that provider.
 */
export function POST(request: NextRequest): Promise<Response> {
  return handleFormPost(request, async (form) => {
    const callbackUrl = safeCallbackUrl(form.get("callbackUrl"));
    const login = form.get("login") ?? "";
    const password = form.get("password") ?? "";
    // Home-realm discovery: an e-mail of a domain a network signs in upstream, and no password, goes to that provider.
    const upstream = password ? null : await findUpstreamForLogin({ login, institutionId: form.get("escola") });
    if (upstream) return seeOther(upstream.startPath(callbackUrl));
    const result = await signInWithPassword({ login, password, ip: clientAddress(request.headers) ?? "local" });
    if (!result.ok) return seeOther(withCallbackUrl("/login", callbackUrl, { error: result.error, ...escolaParam(form.get("escola")) }));
    const next = choosePageAfterSignIn({ callbackUrl, profileCount: result.profileCount, profileChosen: Boolean(result.token.profileId) });
    return writeSession(seeOther(next.location), result.token);
  });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
