import { errorPage } from "@/lib/server/http/html-page.mjs";
import type { RenderedPage } from "@/lib/server/launch/render-launch-page";

/** A refused LTI 1.3 login: the status, the rule that failed (for the tool's developer), no form. */
export function renderLti13Error(status: number, message: string): RenderedPage {
  return errorPage({ status, title: "Não foi possível abrir a ferramenta", text: message, link: { href: "/", label: "Voltar ao início" } });
}
