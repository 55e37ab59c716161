import { env } from "@/lib/env";
import { openIdConfiguration } from "@/lib/oauth/discovery";
import { otherMethods } from "@/lib/server/http/other-methods";

// The issuer comes from the runtime environment, never from the build.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** OpenID Provider metadata (OIDC Discovery §4). Public, so cacheable and readable from any origin. */
export function GET(): Response {
  return Response.json(openIdConfiguration(env().HUB_BASE_URL), {
    headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*" },
  });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
