import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth";
import { safeCallbackUrl } from "@/lib/server/http/safe-callback-url";

export const dynamic = "force-dynamic";

/**
 * next-auth's endpoints. A `callbackUrl` it cannot parse as a URL makes next-auth answer 500
 * ("server configuration"): it is replaced first by what the hub's one rule makes of it.
 */
function handler(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) {
  const callbackUrl = req.nextUrl.searchParams.get("callbackUrl");
  if (callbackUrl !== null) {
    const url = req.nextUrl.clone();
    url.searchParams.set("callbackUrl", safeCallbackUrl(callbackUrl));
    req = new NextRequest(url, req);
  }
  return NextAuth(authOptions())(req, ctx);
}

export { handler as GET, handler as POST };
