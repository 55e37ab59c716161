// Endpoints written once for both ways a request reaches them: a Next route handler (a web
// Request and Response) and server.mjs's hot routes (node:http, where building a Request and a
// Response for every call cost more than the endpoint's own work: docs/decisions/033). An
// endpoint reads headers, cookies and at most a bounded text body, and answers a status, headers
// and a JSON or text body: all the token exchange, user info and the launch page need.
import { parseCookie } from "next/dist/compiled/@edge-runtime/cookies";
import { readRequestBody } from "./read-request-body";

export interface TPlainRequest {
  /** A header's value, repeated ones joined with ", " as the Fetch standard's `Headers.get` does; null when absent. */
  header(name: string): string | null;
  /** A cookie's value, parsed as Next parses the Cookie header (`request.cookies`); undefined when absent. */
  cookie(name: string): string | undefined;
  /** The body as text, or null when it is over `maxBytes` (never buffered past the limit). */
  text(maxBytes: number): Promise<string | null>;
  /** The URL's query, as sent (read when first asked for). */
  readonly query: URLSearchParams;
}

export interface TPlainResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body, sent as JSON (`Content-Type: application/json` unless `headers` has one). */
  json?: unknown;
  /** Or the body as text, with the Content-Type `headers` gives. Neither: no body. */
  text?: string;
}

/** An endpoint; `params` are the named groups of its route's path pattern. */
export type TPlainEndpoint = (request: TPlainRequest, params: Readonly<Record<string, string>>) => Promise<TPlainResponse> | TPlainResponse;

/** A request for an endpoint from its headers' reader, its body's, and its URL's query string (without "?"). */
export function plainRequest(header: (name: string) => string | null, text: (maxBytes: number) => Promise<string | null>, search = ""): TPlainRequest {
  let cookies: Map<string, string> | undefined;
  let query: URLSearchParams | undefined;
  return {
    header,
    cookie: (name) => (cookies ??= parseCookie(header("cookie") ?? "")).get(name),
    text,
    get query() {
      return (query ??= new URLSearchParams(search));
    },
  };
}

export function fromWebRequest(request: Request): TPlainRequest {
  return plainRequest((name) => request.headers.get(name), (maxBytes) => readRequestBody(request, maxBytes), new URL(request.url).search.slice(1));
}

export function toWebResponse(answer: TPlainResponse): Response {
  const init = { status: answer.status, headers: answer.headers };
  if (answer.json !== undefined) return Response.json(answer.json, init);
  return new Response(answer.text ?? null, init);
}

/** The Next route handler of an endpoint without path params. */
export function routeHandler(endpoint: TPlainEndpoint): (request: Request) => Promise<Response> {
  return async (request) => toWebResponse(await endpoint(fromWebRequest(request), {}));
}
