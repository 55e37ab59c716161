import type { NextRequest } from "next/server";
import { otherMethods } from "@/lib/server/http/other-methods";
import { respondOneRosterExport } from "@/lib/server/management/respond-oneroster-export";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The institution's subtree as a OneRoster 1.2 CSV zip (lib/server/management/respond-oneroster-export.ts). */
export async function GET(request: NextRequest, { params }: { params: Promise<{ institutionId: string }> }): Promise<Response> {
  return respondOneRosterExport(request, (await params).institutionId);
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
