import type { NextRequest } from "next/server";
import { writeSession } from "@/lib/server/auth/session-cookie";
import { seeOther } from "@/lib/server/http/form-post";
import { clientAddress } from "@/lib/server/http/stamped-client-address";
import { signInWithCard } from "./sign-in-with-card";

/**
 * GET /cracha/{token}, the address a card's QR code holds: signs the card's student in (the same
 * session cookie as the sign-in form) and goes to the gallery, or to the page that says why not.
 */
export async function respondCardSignIn(request: NextRequest, token: string): Promise<Response> {
  const result = await signInWithCard({ token, address: clientAddress(request.headers) });
  if (!result.ok) return seeOther(`/cracha/recusado?motivo=${result.reason}`);
  return writeSession(seeOther("/"), result.token);
}
