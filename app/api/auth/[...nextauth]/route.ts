import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/server/auth/auth-options";
import { safeCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";

/** What next-auth may copy into a Location header as it is: printable ASCII only. */
const headerSafe = (value: string) => (/^[\x21-\x7e]*$/.test(value) ? value : "invalid");

/**
 * next-auth's endpoints. Inputs next-auth answers with a 500 are settled first: a `callbackUrl`
 * it cannot parse as a URL ("server configuration") is replaced by what the hub's one rule makes
 * of it; an `error` (query or path) it would copy raw into a Location header is replaced when it
 * is not printable ASCII; and a JSON body that does not parse is a 400.
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
  const error = req.nextUrl.searchParams.get("error");
  if (callbackUrl !== null || error !== null) {
    const url = req.nextUrl.clone();
    if (callbackUrl !== null) url.searchParams.set("callbackUrl", safeCallbackUrl(callbackUrl));
    if (error !== null) url.searchParams.set("error", headerSafe(error));
    req = new NextRequest(url, req);
  }
  const segments = (await ctx.params).nextauth.map(headerSafe);
  return NextAuth(authOptions())(req, { params: Promise.resolve({ nextauth: segments }) });
}

export { handler as GET, handler as POST };

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
