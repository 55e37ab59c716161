import type { NextRequest } from "next/server";
import { respondPrintCards } from "@/lib/server/cards/respond-print-cards";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

/** The class's sign-in cards, newly issued: the printable sheet and its PDF. */
export async function POST(request: NextRequest, { params }: { params: Promise<{ institutionId: string; classId: string }> }): Promise<Response> {
  return respondPrintCards(request, await params);
}

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
