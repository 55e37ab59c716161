// RFC 9110 §15.5.6: a 405 MUST carry `Allow`, the methods the resource does support. Next answers
// a method a route handler does not export with a bare 405, so every route file exports the
// methods it does not implement from here:
//
//   export async function GET(request: Request) { … }
//   export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
//
// e2e/methods.spec.ts sends every method to every route of the build and fails on a 405
// without `Allow`, so a route that forgets this line is caught.

export type THttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

type THandler = () => Response;

/** The `Allow` value: the implemented methods, HEAD wherever GET is (Next answers it), and OPTIONS. */
export function allowHeader(implemented: readonly THttpMethod[]): string {
  const allow = new Set<THttpMethod>([...implemented, "OPTIONS"]);
  if (allow.has("GET")) allow.add("HEAD");
  return [...allow].sort().join(", ");
}

/**
 * Handlers for every method a route does not implement: 405 with `Allow`, and OPTIONS as a 204
 * with `Allow` (what Next would answer, which it no longer does once OPTIONS is exported here).
 */
export function otherMethods(implemented: readonly THttpMethod[]): Record<THttpMethod, THandler> {
  const allow = allowHeader(implemented);
  const notAllowed: THandler = () =>
    Response.json({ message: `Método não permitido. Este endereço aceita ${allow}.` }, { status: 405, headers: { Allow: allow, "Cache-Control": "no-store" } });
  return {
    GET: notAllowed,
    HEAD: () => new Response(null, { status: 405, headers: { Allow: allow } }),
    POST: notAllowed,
    PUT: notAllowed,
    PATCH: notAllowed,
    DELETE: notAllowed,
    OPTIONS: () => new Response(null, { status: 204, headers: { Allow: allow } }),
  };
}
