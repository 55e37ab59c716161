// GET /cracha/{token}, the address a card's QR code holds. A plain endpoint (docs/decisions/033):
// the route file serves it through Next, server.mjs's hot route on node:http, as a class signs in
// at the bell (issue #45).
import { sessionSetCookie } from "@/lib/server/auth/session-cookie";
import type { TPlainRequest, TPlainResponse } from "@/lib/server/http/plain-endpoint";
import { clientAddress } from "@/lib/server/http/stamped-client-address";
import { signInWithCard } from "./sign-in-with-card";

/**
 * Signs the card's student in (the same session cookie as the sign-in form) and goes to the
 * gallery, or to the page that says why not.
 */
export async function respondCardSignIn(request: TPlainRequest, params: Readonly<Record<string, string>>): Promise<TPlainResponse> {
  const result = await signInWithCard({ token: params.token ?? "", address: clientAddress(request) });
  if (!result.ok) return { status: 303, headers: { Location: `/cracha/recusado?motivo=${result.reason}`, "Cache-Control": "no-store" } };
  return { status: 303, headers: { Location: "/", "Cache-Control": "no-store", "Set-Cookie": await sessionSetCookie(result.token) } };
}
