import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { RETRY_AFTER_SECONDS, type AppErrorCode } from "@/lib/errors";
import { reportError } from "@/lib/server/http/error-response";
import { htmlAnswer } from "@/lib/server/launch/html";
import { errorPage, homeLink, otherAddressPage, signInLink, type TErrorPage } from "./html-page.mjs";
import { fromWebRequest, toWebResponse, type TPlainEndpoint, type TPlainRequest, type TPlainResponse } from "./plain-endpoint";
import { mediaType } from "./media-type";
import { isSameOriginPost } from "./same-origin";

const FORM_MAX_BYTES = 16 * 1024;

/**
 * What a form post brings once checked: the form, or the refusal page for it. A plain HTML form post
 * (`application/x-www-form-urlencoded`), the way the hub's sign-in and profile forms arrive with
 * or without JavaScript: same-origin only (`requestOrigin`: the origin it was served on), bounded,
 * parsed once.
 */
async function receiveForm(request: TPlainRequest, requestOrigin: string): Promise<URLSearchParams | TErrorPage> {
  const base = env().HUB_BASE_URL;
  if (!isSameOriginPost({ get: (name) => request.header(name) }, requestOrigin)) return otherAddressPage(base);
  if (mediaType(request.header("content-type")) !== "application/x-www-form-urlencoded") {
    return {
      status: 415,
      title: TITLES.unsupported_media_type,
      text: "O Hub recebe formulários somente no formato de um formulário HTML (application/x-www-form-urlencoded). Nada foi alterado.",
      link: homeLink(base),
    };
  }
  const body = await request.text(FORM_MAX_BYTES);
  if (body === null) return { status: 413, title: TITLES.payload_too_large, text: "O formulário passa do limite de 16 KiB do Hub. Nada foi alterado.", link: homeLink(base) };
  return new URLSearchParams(body);
}

/**
 * A form post to a route handler: `handler` answers with a redirect (see `seeOther`). A refusal,
 * or an error the handler throws, is a page in Portuguese with the same status (formRefusal): a
 * person submitted the form, and the browser would show JSON as it is.
 */
export async function handleFormPost(request: NextRequest, handler: (form: URLSearchParams) => Promise<Response>): Promise<Response> {
  try {
    const form = await receiveForm(fromWebRequest(request), request.nextUrl.origin);
    return form instanceof URLSearchParams ? await handler(form) : toWebResponse(formRefusal(form));
  } catch (error) {
    return errorPageResponse(error);
  }
}

/**
 * The same for a plain endpoint, which server.mjs serves beside Next. Its origin is HUB_BASE_URL's,
 * as the hot routes' requests are: a page asked for at another host is sent there before it is
 * shown (base-url-redirect.mjs), so the hub's forms are posted from it. `handler` answers with a
 * redirect (seeOtherAnswer).
 */
export function formPostEndpoint(handler: (form: URLSearchParams, request: TPlainRequest) => Promise<TPlainResponse>): TPlainEndpoint {
  return async (request) => {
    try {
      const form = await receiveForm(request, new URL(env().HUB_BASE_URL).origin);
      return form instanceof URLSearchParams ? await handler(form, request) : formRefusal(form);
    } catch (error) {
      return errorPageAnswer(error);
    }
  };
}

/**
 * The page a person reads for an error a handler threw (a form's, or a link's such as the upstream
 * sign-in's): its status and the app's message, a link to sign in (401) or home, the request id of
 * an unexpected error, Retry-After on a 503. Logged once when unexpected (reportError).
 */
export function errorPageAnswer(error: unknown): TPlainResponse {
  const base = env().HUB_BASE_URL;
  const { appError, requestId } = reportError(error);
  const page = { status: appError.status, title: TITLES[appError.code], text: appError.message, detail: requestId };
  const answer = formRefusal({ ...page, link: appError.code === "unauthorized" ? signInLink(base) : homeLink(base) });
  return appError.code === "unavailable" ? { ...answer, headers: { ...answer.headers, "Retry-After": String(RETRY_AFTER_SECONDS) } } : answer;
}

/** errorPageAnswer as a Response. */
export function errorPageResponse(error: unknown): Response {
  return toWebResponse(errorPageAnswer(error));
}

/** What a person reads as the heading of a form's refusal, per error code. */
const TITLES: Record<AppErrorCode, string> = {
  bad_request: "Formulário com dados inválidos",
  unauthorized: "Entre novamente para continuar",
  forbidden: "Envio não permitido",
  not_found: "Não encontrado",
  conflict: "O envio conflita com uma alteração recente",
  payload_too_large: "Formulário grande demais",
  unsupported_media_type: "Formulário em um formato não aceito",
  too_many_requests: "Tentativas demais",
  internal: "Algo deu errado no Hub",
  unavailable: "O Hub está indisponível no momento",
};

/** The refusal page, never cached (it may answer a sign-in). */
function formRefusal(page: TErrorPage): TPlainResponse {
  const { html, csp } = errorPage(page);
  return htmlAnswer(html, { status: page.status, csp });
}

/** 303 See Other to a path of the hub: the browser follows with a GET (RFC 9110 §15.4.4). */
export function seeOtherAnswer(location: string): TPlainResponse {
  return { status: 303, headers: { Location: location, "Cache-Control": "no-store" } };
}

/** seeOtherAnswer as a NextResponse, whose cookies a handler may set (writeSession). */
export function seeOther(location: string): NextResponse {
  return new NextResponse(null, seeOtherAnswer(location));
}
