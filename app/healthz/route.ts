import { NextResponse } from "next/server";
import { RETRY_AFTER_SECONDS } from "@/lib/errors";
import { checkHealth } from "@/lib/server/health/check-health";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth();
  const ok = health.status === "ok";
  return NextResponse.json(health, { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store", ...(ok ? {} : { "Retry-After": String(RETRY_AFTER_SECONDS) }) } });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
