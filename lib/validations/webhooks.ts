// Input rules of webhook endpoints (/desenvolvedor/aplicacoes/{id}/webhooks).
import { z } from "zod";
import { zfd } from "zod-form-data";
import { ENTITY_NAMES, EVENT_KINDS } from "@/lib/validations/data-api";
import { urlProblem } from "@/lib/validations/developer";
import { ZFormText } from "@/lib/validations/form";

/** An application keeps a handful of endpoints; each one is a queue per institution to work. */
export const MAX_WEBHOOK_ENDPOINTS = 5;

/** A checkbox group: absent is none, one value is a list of one. */
const ZChoices = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  zfd.repeatable(z.array(z.enum(values, { message })).max(values.length));

export const ZWebhookEndpointSchema = z.object({
  applicationId: ZFormText,
  url: zfd.text(z.string({ message: "Informe o endereço." }).trim()).superRefine((value, ctx) => {
    // An address of the redirect kind: https (http only for loopback), no credentials, no fragment.
    const problem = urlProblem(value, "redirect");
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  description: zfd.text(z.string().trim().max(200, "A descrição pode ter até 200 caracteres.").default("")),
  entities: ZChoices(ENTITY_NAMES, "Entidade desconhecida."),
  kinds: ZChoices(EVENT_KINDS, "Tipo de evento desconhecido."),
});
export type TWebhookEndpointInput = z.output<typeof ZWebhookEndpointSchema>;

/** The ids a webhook form carries. */
export const ZWebhookTargetSchema = z.object({
  applicationId: ZFormText,
  endpointId: ZFormText,
  attemptId: ZFormText,
});
