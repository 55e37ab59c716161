import { NextResponse, type NextRequest } from "next/server";
import { toResponse } from "@/lib/server/http/error-response";
import { JsonStream, JsonText } from "@/lib/server/http/json-text";

type TDataApiService = (options: { apiKey: string | null; orgId: string | undefined; searchParams: URLSearchParams }) => Promise<unknown>;
type TContext = { params: Promise<{ orgId?: string }> };

const headers = { "Cache-Control": "no-store" };

/**
 * The GET handler of every Data API route (data and summary, with and without org_id): the key
 * header, the path's org_id and the query go to the service; its result is sent as JSON (as is
 * when it is already JSON text); errors become JSON with `message`.
 */
export function dataApiGetHandler(service: TDataApiService): (request: NextRequest, context?: TContext) => Promise<NextResponse> {
  return async (request, context) => {
    try {
      // Routes without the [orgId] segment have no params: that is the "org_id not informed" case.
      const orgId = (await context?.params)?.orgId;
      const body = await service({ apiKey: request.headers.get("x-api-key"), orgId, searchParams: request.nextUrl.searchParams });
      // Already JSON text: sent as it is. (Compressed by server.mjs, not here: Next drops a
      // route's Content-Encoding; docs/decisions/007.)
      if (body instanceof JsonText) return new NextResponse(body.bytes, { headers: { ...headers, "Content-Type": "application/json" } });
      if (body instanceof JsonStream) return new NextResponse(body.stream(), { headers: { ...headers, "Content-Type": "application/json" } });
      return NextResponse.json(body, { headers });
    } catch (error) {
      return toResponse(error, { headers });
    }
  };
}
