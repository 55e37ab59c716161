import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { otherMethods } from "@/lib/server/http/other-methods";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { exportMyData } from "@/lib/server/privacy/export-my-data";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /meus-dados/exportar: everything the hub holds about the signed-in person, as a JSON download. */
export async function GET(): Promise<Response> {
  const user = await getCurrentUser();
  const data = user ? await exportMyData({ personId: user.personId }) : null;
  // Signed-in only; redirect targets come from HUB_BASE_URL, never from the Host header.
  if (!data) return NextResponse.redirect(new URL(withCallbackUrl("/login", "/meus-dados/exportar"), env().HUB_BASE_URL), 303);
  const day = data.geradoEm.slice(0, 10);
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="meus-dados-${day}.json"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
