// The gestão form of an upstream identity provider (issue #42): what a manager types, checked
// before anything is stored. The relying party's own rules (lib/upstream/check-claims.ts) read
// what this stores.
import { z } from "zod";
import { emailDomain, LINK_RULES, PROVIDER_KINDS, PROVIDER_PRESETS } from "@/lib/upstream/presets";
import { ZFormText, ZFormTrimmed } from "./form";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Domains typed one per line or separated by commas or spaces, lowercased, each a real domain. */
const ZDomains = ZFormText.transform((text, ctx) => {
  const domains = [...new Set(text.split(/[\s,;]+/).map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter(Boolean))];
  for (const d of domains) if (emailDomain(`x@${d}`) !== d) ctx.addIssue({ code: "custom", message: `Domínio inválido: ${d.slice(0, 80)}` });
  if (domains.length > 50) ctx.addIssue({ code: "custom", message: "No máximo 50 domínios." });
  return domains;
});

export const ZIdentityProviderFormSchema = z
  .object({
    providerId: ZFormTrimmed,
    kind: z.enum(PROVIDER_KINDS, { message: "Escolha o provedor." }),
    name: ZFormTrimmed.pipe(z.string().max(60, "No máximo 60 caracteres.")),
    issuer: ZFormTrimmed.pipe(z.string().max(300, "Endereço longo demais.")),
    tenantId: ZFormTrimmed,
    clientId: ZFormTrimmed.pipe(z.string().min(1, "Informe o client ID.").max(255, "No máximo 255 caracteres.")),
    // Blank when editing: the stored secret stays.
    clientSecret: ZFormText.pipe(z.string().max(512, "No máximo 512 caracteres.")),
    allowedDomains: ZDomains,
    linkRule: ZFormTrimmed,
    enabled: ZFormTrimmed.transform((s) => s !== "0"),
  })
  .transform((input, ctx) => {
    const preset = PROVIDER_PRESETS[input.kind];
    const linkRule = preset.linkRule ?? (LINK_RULES as readonly string[]).find((r) => r === input.linkRule);
    if (!linkRule) ctx.addIssue({ code: "custom", path: ["linkRule"], message: "Escolha como a conta encontra a pessoa." });
    if (input.kind === "microsoft" && !GUID.test(input.tenantId)) ctx.addIssue({ code: "custom", path: ["tenantId"], message: "Informe o ID do locatário (Directory/tenant ID, um GUID)." });
    if (linkRule === "email" && input.allowedDomains.length === 0) ctx.addIssue({ code: "custom", path: ["allowedDomains"], message: "Informe ao menos um domínio de e-mail da rede." });
    const issuer = input.issuer || preset.defaultIssuer(input.tenantId.toLowerCase());
    let url: URL | null = null;
    try {
      url = new URL(issuer);
    } catch {
      url = null;
    }
    // OpenID Connect Discovery §2: https, no query or fragment. (http on loopback only in demo mode: checked by the service.)
    if (!url || !["https:", "http:"].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
      ctx.addIssue({ code: "custom", path: ["issuer"], message: "Informe o endereço do emissor (issuer), começando com https://, sem ? nem #." });
    }
    return {
      providerId: input.providerId || null,
      kind: input.kind,
      name: input.name || preset.label,
      // As typed: discovery compares it with the provider's own `issuer`, trailing slash and all.
      issuer,
      tenantId: input.kind === "microsoft" ? input.tenantId.toLowerCase() : null,
      clientId: input.clientId,
      clientSecret: input.clientSecret || null,
      allowedDomains: input.allowedDomains,
      linkRule: linkRule === "cpf" ? ("cpf" as const) : ("email" as const),
      enabled: input.enabled,
    };
  });
export type TIdentityProviderInput = z.output<typeof ZIdentityProviderFormSchema>;

/** Enable, disable or delete one provider. */
export const ZIdentityProviderStateFormSchema = z.object({
  providerId: ZFormTrimmed,
  op: z.enum(["enable", "disable", "delete"], { message: "Ação desconhecida." }),
});
