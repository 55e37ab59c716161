import type { NextRequest } from "next/server";
import { otherMethods } from "@/lib/server/http/other-methods";
import { respondImport } from "@/lib/server/management/respond-import";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** POST the CSV of an import (lib/server/management/respond-import.ts). */
export async function POST(request: NextRequest, context: { params: Promise<{ institutionId: string }> }): Promise<Response> {
  return respondImport(request, (await context.params).institutionId);
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
