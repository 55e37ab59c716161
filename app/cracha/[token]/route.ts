import { respondCardSignIn } from "@/lib/server/cards/respond-card-sign-in";
import { otherMethods } from "@/lib/server/http/other-methods";
import { fromWebRequest, toWebResponse } from "@/lib/server/http/plain-endpoint";

export const dynamic = "force-dynamic";

/** A sign-in card's address (its QR code): signs the student in. */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  return toWebResponse(await respondCardSignIn(fromWebRequest(request), await params));
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
