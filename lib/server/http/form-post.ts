import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { toResponse } from "@/lib/server/http/error-response";
import { readRequestBody } from "./read-request-body";
import { mediaType } from "./media-type";
import { isSameOriginPost } from "./same-origin";

const FORM_MAX_BYTES = 16 * 1024;

/**
 * A plain HTML form post (`application/x-www-form-urlencoded`), the way the hub's sign-in and
 * profile forms arrive with or without JavaScript: same-origin only, bounded, parsed once.
 * The handler answers with a redirect (see `seeOther`); refusals are the app's JSON errors.
 */
export async function handleFormPost(request: NextRequest, handler: (form: URLSearchParams) => Promise<Response>): Promise<Response> {
  try {
    if (!isSameOriginPost(request.headers, request.nextUrl.origin)) throw new AppError("forbidden", "Envio de formulário de outra origem recusado.");
    if (mediaType(request.headers.get("content-type")) !== "application/x-www-form-urlencoded") throw new AppError("unsupported_media_type", "Envie o formulário como application/x-www-form-urlencoded.");
    const body = await readRequestBody(request, FORM_MAX_BYTES);
    if (body === null) throw new AppError("payload_too_large", "Formulário grande demais.");
    return await handler(new URLSearchParams(body));
  } catch (error) {
    return toResponse(error, { headers: { "Cache-Control": "no-store" } });
  }
}

/** 303 See Other to a path of the hub: the browser follows with a GET (RFC 9110 §15.4.4). */
export function seeOther(location: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}
