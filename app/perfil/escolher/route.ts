import { chooseProfileEndpoint } from "@/lib/server/auth/choose-profile-endpoint";
import { otherMethods } from "@/lib/server/http/other-methods";
import { routeHandler } from "@/lib/server/http/plain-endpoint";

export const dynamic = "force-dynamic";

/** The profile pickers' and the header switch's POST: lib/server/auth/choose-profile-endpoint.ts, also served beside Next. */
export const POST = routeHandler(chooseProfileEndpoint);

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
