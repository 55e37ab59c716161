// Input rules of a tool's LTI 1.3 registration (/desenvolvedor/ferramentas/{id}).
import { z } from "zod";
import { MAX_REDIRECT_URIS, urlProblem, ZRedirectUrisSchema } from "@/lib/validations/developer";
import { ZFormText } from "@/lib/validations/form";

function urlOf(required: string) {
  return z
    .string({ message: required })
    .trim()
    .min(1, required)
    .superRefine((value, ctx) => {
      const problem = urlProblem(value, "redirect");
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}

const ZOptionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((s) => (s ? s : undefined))
  .superRefine((value, ctx) => {
    const problem = value === undefined ? null : urlProblem(value, "redirect");
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** One RSA public key as a JWK (RS256 is the only algorithm of LTI 1.3's Security Framework §6.1). */
const ZPublicJwk = z
  .string()
  .trim()
  .optional()
  .transform((s, ctx) => {
    if (!s) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      ctx.addIssue({ code: "custom", message: "Cole a chave pública como um JWK em JSON." });
      return z.NEVER;
    }
    const key = z.object({ kty: z.literal("RSA"), n: z.string().min(100), e: z.string().min(1), kid: z.string().optional() }).safeParse(parsed);
    if (!key.success) {
      ctx.addIssue({ code: "custom", message: "A chave precisa ser um JWK RSA público (kty, n, e)." });
      return z.NEVER;
    }
    // Only public members are kept: a pasted private key (d, p, q…) is not stored.
    return { kty: "RSA" as const, n: key.data.n, e: key.data.e, ...(key.data.kid ? { kid: key.data.kid } : {}) };
  });

export const ZLti13RegistrationSchema = z
  .object({
    loginUrl: urlOf("Informe o endereço de início de login (OIDC login initiation)."),
    targetLinkUri: urlOf("Informe o target link URI."),
    redirectUris: ZRedirectUrisSchema,
    jwksUrl: ZOptionalUrl,
    publicJwk: ZPublicJwk,
    deepLinkingUrl: ZOptionalUrl,
  })
  .superRefine((value, ctx) => {
    if (!value.jwksUrl && !value.publicJwk) {
      ctx.addIssue({ code: "custom", path: ["jwksUrl"], message: "Informe o endereço JWKS da ferramenta ou cole a chave pública." });
    }
  });
export type TLti13Registration = z.output<typeof ZLti13RegistrationSchema>;

export const LTI13_MAX_REDIRECT_URIS = MAX_REDIRECT_URIS;

/** The registration form as it arrives (checked by saveLti13Registration). */
export const ZLti13FormSchema = z.object({
  toolId: ZFormText,
  loginUrl: ZFormText,
  targetLinkUri: ZFormText,
  redirectUris: ZFormText,
  jwksUrl: ZFormText,
  publicJwk: ZFormText,
  deepLinkingUrl: ZFormText,
});
