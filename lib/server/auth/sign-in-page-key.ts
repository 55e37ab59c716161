import type { TPlainRequest } from "@/lib/server/http/plain-endpoint";
import { schoolOfSignInPage } from "@/lib/server/upstream/find-upstream-for-login";
import { listSignInOptions } from "@/lib/server/upstream/list-sign-in-options";
import { sessionCookie } from "./session-cookie";

/**
 * The key of the sign-in page (app/login/page.tsx) as a kept page (lib/server/http/kept-pages.mjs):
 * besides its URL, the page reads the session and the providers' buttons for the school of its link.
 * Null — render it — when the request carries a session cookie (or a chunk of one: next-auth reads
 * those too), since the page then sends a signed-in person on; otherwise the buttons, read now, as
 * the page reads them.
 */
export async function signInPageKey(request: Pick<TPlainRequest, "header">, query: URLSearchParams): Promise<string | null> {
  if (request.header("cookie")?.includes(sessionCookie().name)) return null;
  const school = schoolOfSignInPage(query.get("escola"));
  return JSON.stringify(await listSignInOptions({ institutionId: school }));
}
