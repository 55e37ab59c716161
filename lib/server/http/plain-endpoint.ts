// Endpoints written once for both ways a request reaches them: a Next route handler (a web
// Request and Response) and server.mjs's hot routes (node:http, where building a Request and a
// Response for every call cost more than the endpoint's own work: docs/decisions/033). An
// endpoint reads headers and at most a bounded text body, and answers a status, headers and a
// JSON body, which is all the token exchange and user info need.
import { readRequestBody } from "./read-request-body";

export interface TPlainRequest {
  /** A header's value, repeated ones joined with ", " as the Fetch standard's `Headers.get` does; null when absent. */
  header(name: string): string | null;
  /** The body as text, or null when it is over `maxBytes` (never buffered past the limit). */
  text(maxBytes: number): Promise<string | null>;
}

export interface TPlainResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body, sent as JSON (`Content-Type: application/json` unless `headers` has one); absent: no body. */
  json?: unknown;
}

export type TPlainEndpoint = (request: TPlainRequest) => Promise<TPlainResponse> | TPlainResponse;

export function fromWebRequest(request: Request): TPlainRequest {
  return { header: (name) => request.headers.get(name), text: (maxBytes) => readRequestBody(request, maxBytes) };
}

export function toWebResponse(answer: TPlainResponse): Response {
  const init = { status: answer.status, headers: answer.headers };
  return answer.json === undefined ? new Response(null, init) : Response.json(answer.json, init);
}

/** The Next route handler of an endpoint. */
export function routeHandler(endpoint: TPlainEndpoint): (request: Request) => Promise<Response> {
  return async (request) => toWebResponse(await endpoint(fromWebRequest(request)));
}
