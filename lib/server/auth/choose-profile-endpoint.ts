// POST /perfil/escolher, the profile pickers' and the header switch's form (works without
// JavaScript): a plain endpoint (docs/decisions/033), which the route file adapts to Next and
// server.mjs serves beside Next's router (a teacher's choice at the bell, issue #45).
import { formPostEndpoint, seeOtherAnswer } from "@/lib/server/http/form-post";
import { safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { chooseProfile } from "./choose-profile";
import { readSession, sessionSetCookie } from "./session-cookie";

function withProfileError(path: string): string {
  const url = new URL(path, "http://hub.invalid");
  url.searchParams.set("erro", "perfil");
  return `${url.pathname}${url.search}`;
}

/**
 * The session takes the chosen profile, then on to `callbackUrl`. A profile that is not the
 * person's goes back to `returnTo` with `erro=perfil`, which the picker shows; without a session,
 * to sign in.
 */
export const chooseProfileEndpoint = formPostEndpoint(async (form, request) => {
  const callbackUrl = safeCallbackUrl(form.get("callbackUrl"));
  const token = await readSession(request);
  if (!token) return seeOtherAnswer(withCallbackUrl("/login", callbackUrl));
  const chosen = await chooseProfile({ token, profileId: form.get("profileId") ?? "" });
  if (!chosen) return seeOtherAnswer(withProfileError(safeCallbackUrl(form.get("returnTo"), "/perfil")));
  const answer = seeOtherAnswer(callbackUrl);
  return { ...answer, headers: { ...answer.headers, "Set-Cookie": await sessionSetCookie(chosen) } };
});
