import type { NextRequest } from "next/server";
import { respondCardSignIn } from "@/lib/server/cards/respond-card-sign-in";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

/** A sign-in card's address (its QR code): signs the student in. */
export async function GET(request: NextRequest, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  return respondCardSignIn(request, (await params).token);
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
