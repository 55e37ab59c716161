import type { NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { handleFormPost } from "@/lib/server/http/form-post";
import { issueClassCards } from "./issue-class-cards";
import { renderCardSheet } from "./render-card-sheet";
import { renderCardsPdf } from "./render-cards-pdf";
import { requireCardClass } from "./require-card-class";

/**
 * POST /gestao/{institutionId}/turmas/{classId}/crachas (the class page's "Imprimir crachás"
 * form): new cards for the class's students, answered as the printable sheet with the PDF of the
 * same cards. A POST, never cached: the tokens exist only in this one answer.
 */
export function respondPrintCards(request: NextRequest, params: { institutionId: string; classId: string }): Promise<Response> {
  return handleFormPost(request, async () => {
    const user = await getRequestUser(request);
    if (!user?.profile) throw new AppError("unauthorized", "Sua sessão expirou. Entre novamente.");
    const cls = await requireCardClass({ user, classId: params.classId });
    if (cls.institutionId !== params.institutionId.toLowerCase()) throw new AppError("not_found", "Turma não encontrada.");
    const cards = await issueClassCards({ cls, actorPersonId: user.personId });
    const pdf = await renderCardsPdf({ cls, cards });
    const html = renderCardSheet({ cls, cards, pdf, backHref: user.profile.role === "professor" ? `/turmas/${cls.id}` : `/gestao/${cls.institutionId}/turmas/${cls.id}` });
    return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
  });
}
