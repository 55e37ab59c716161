import type { NextRequest } from "next/server";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { handleFormPost, seeOther } from "@/lib/server/http/form-post";
import { safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { setFavourite } from "./set-favourite";

/**
 * POST /favoritos, the gallery card's "Fixar"/"Desafixar" (a plain form: works without
 * JavaScript): `placementId`, `pinned` (1 or 0), and `returnTo`, the page to go back to.
 */
export function respondFavourite(request: NextRequest): Promise<Response> {
  return handleFormPost(request, async (form) => {
    const returnTo = safeCallbackUrl(form.get("returnTo"), "/");
    const user = await getRequestUser(request);
    if (!user?.profile) return seeOther(withCallbackUrl(user ? "/perfil" : "/login", returnTo));
    const profile = { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id };
    await setFavourite({ profile, placementId: form.get("placementId") ?? "", pinned: form.get("pinned") === "1" });
    return seeOther(returnTo);
  });
}
