import { serverErrorResponse } from "@/lib/server/oauth/server-error";
import { getSigningKey, listPublicJwks } from "@/lib/server/oauth/signing-keys";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The public keys that verify the hub's tokens (RFC 7517 §5), retired keys included until their
 * tokens expire. A short max-age: after a rotation, clients see the new key within minutes, and
 * libraries refetch at once when they meet an unknown kid.
 */
export async function GET(): Promise<Response> {
  try {
    // Creating the first key here too means the JWKS is never empty, even before any sign-in.
    await getSigningKey();
    return Response.json({ keys: await listPublicJwks() }, {
      headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
    });
  } catch (error) {
    return serverErrorResponse(error, { "Access-Control-Allow-Origin": "*" });
  }
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
