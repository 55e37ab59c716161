import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth";
import { safeCallbackUrl } from "@/lib/server/http/safe-callback-url";

export const dynamic = "force-dynamic";

/**
 * next-auth's endpoints. Two inputs next-auth answers with a 500 are settled first: a
 * `callbackUrl` it cannot parse as a URL ("server configuration") is replaced by what the hub's
 * one rule makes of it, and a JSON body that does not parse is a 400.
 */
async function handler(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) {
  if (req.method === "POST" && req.headers.get("content-type")?.includes("application/json")) {
    try {
      JSON.parse(await req.clone().text());
    } catch {
      return Response.json({ message: "O corpo não é um JSON válido." }, { status: 400, headers: { "Cache-Control": "no-store" } });
    }
  }
  const callbackUrl = req.nextUrl.searchParams.get("callbackUrl");
  if (callbackUrl !== null) {
    const url = req.nextUrl.clone();
    url.searchParams.set("callbackUrl", safeCallbackUrl(callbackUrl));
    req = new NextRequest(url, req);
  }
  return NextAuth(authOptions())(req, ctx);
}

export { handler as GET, handler as POST };
