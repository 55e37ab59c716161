import type { NextRequest } from "next/server";
import { chooseProfile } from "@/lib/server/auth/choose-profile";
import { readSession, writeSession } from "@/lib/server/auth/session-cookie";
import { handleFormPost, seeOther } from "@/lib/server/http/form-post";
import { safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

/**
 * The profile pickers' and the header switch's POST (works without JavaScript): the session
 * takes the chosen profile, then on to `callbackUrl`. A profile that is not the person's goes
 * back to `returnTo` with `erro=perfil`, which the picker shows.
 */
export function POST(request: NextRequest): Promise<Response> {
  return handleFormPost(request, async (form) => {
    const callbackUrl = safeCallbackUrl(form.get("callbackUrl"));
    const token = await readSession(request);
    if (!token) return seeOther(withCallbackUrl("/login", callbackUrl));
    const chosen = await chooseProfile({ token, profileId: form.get("profileId") ?? "" });
    if (!chosen) return seeOther(withProfileError(safeCallbackUrl(form.get("returnTo"), "/perfil")));
    return writeSession(seeOther(callbackUrl), chosen);
  });
}

function withProfileError(path: string): string {
  const url = new URL(path, "http://hub.invalid");
  url.searchParams.set("erro", "perfil");
  return `${url.pathname}${url.search}`;
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
