import type { NextRequest } from "next/server";
import { respondFavourite } from "@/lib/server/gallery/respond-favourite";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

/** Pins or unpins a gallery card (the card's form). */
export function POST(request: NextRequest): Promise<Response> {
  return respondFavourite(request);
}

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
