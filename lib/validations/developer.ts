// Input rules of the developer area (/desenvolvedor): tools, OAuth applications and API keys.
// Shared by the services (the authority) and the client forms (early, friendlier messages).
import { z } from "zod";
import { ZFormFile, ZFormText } from "@/lib/validations/form";

/** Logos are small images; the limit keeps the Asset row and every gallery page light. */
export const LOGO_MAX_BYTES = 256 * 1024;
/**
 * Server actions refuse bodies over 1 MB before our code runs (Next's default bodySizeLimit), so
 * the browser stops larger files itself; between the two limits the server gives the message.
 */
export const LOGO_TRANSPORT_LIMIT_BYTES = 900 * 1024;
export const LOGO_ACCEPT = "image/png,image/jpeg,image/svg+xml,.png,.jpg,.jpeg,.svg";

export const RESPONSE_TYPES = ["code", "access_token", "id_token"] as const;
export type TResponseType = (typeof RESPONSE_TYPES)[number];

export const MAX_REDIRECT_URIS = 10;
const MAX_URL_LENGTH = 2000;

/**
 * Hosts that can only mean "this machine": RFC 6761 reserves `localhost` and `*.localhost`,
 * 127.0.0.0/8 and ::1 are the loopback ranges. Plain http is acceptable only there, because the
 * traffic never leaves the developer's computer (RFC 8252 §7.3 makes the same exception).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]" || host === "::1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * launch: the LTI endpoint; redirect: an OAuth redirect_uri; homepage: an application's page
 * (loopback allowed, like the other two, so local development works); site: the tool's public
 * site in the gallery, which every school user may open, so https only.
 */
type UrlRule = "launch" | "redirect" | "homepage" | "site";

/** Why `value` is not acceptable as a URL of this kind, or null when it is. */
export function urlProblem(value: string, rule: UrlRule): string | null {
  if (value.length > MAX_URL_LENGTH) return "Endereço longo demais (máximo de 2000 caracteres).";
  if (/\s/.test(value)) return "O endereço não pode conter espaços.";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Informe um endereço completo, começando com https://.";
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol === "http:") {
    if (!loopback || rule === "site") return "Use https:// (http:// só é aceito para localhost e 127.0.0.1).";
  } else if (url.protocol !== "https:") {
    return "Use um endereço https://.";
  }
  if (url.username || url.password) return "O endereço não pode conter usuário ou senha.";
  if (!url.hostname) return "Informe o domínio do endereço.";
  if (rule === "site" || rule === "homepage") return null;
  // RFC 6749 §3.1.2: a redirection endpoint MUST NOT include a fragment; a launch URL with one
  // would sign a URL the browser never sends.
  if (value.includes("#")) return "O endereço não pode conter fragmento (#).";
  if (rule === "launch") {
    for (const name of url.searchParams.keys()) {
      // They would duplicate the OAuth protocol parameters the hub adds (RFC 5849 §3.2).
      if (name.startsWith("oauth_")) return `O endereço não pode ter o parâmetro ${name}; o Hub o envia na assinatura.`;
    }
  }
  return null;
}

function urlField(rule: UrlRule, required: string) {
  return z
    .string({ message: required })
    .trim()
    .min(1, required)
    .superRefine((value, ctx) => {
      const problem = urlProblem(value, rule);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}

const ZTitle = z.string({ message: "Informe o título." }).trim().min(1, "Informe o título.").max(80, "O título pode ter até 80 caracteres.");
const ZShortDescription = z
  .string({ message: "Informe a descrição curta." })
  .trim()
  .min(1, "Informe a descrição curta.")
  .max(200, "A descrição curta pode ter até 200 caracteres.");
const ZLongDescription = z
  .string({ message: "Informe a descrição longa." })
  .trim()
  .min(1, "Informe a descrição longa.")
  .max(5000, "A descrição longa pode ter até 5000 caracteres.");

/** OAuth 1 consumer keys are chosen by the tool: any visible ASCII, no spaces (they travel in forms). */
const ZConsumerKey = z
  .string({ message: "Informe a consumer key." })
  .trim()
  .min(1, "Informe a consumer key.")
  .max(100, "A consumer key pode ter até 100 caracteres.")
  .regex(/^[\x21-\x7E]+$/, "Use apenas letras, números e símbolos, sem espaços nem acentos.");

/**
 * A shared secret signs every launch and an attacker who sees one signed launch can try secrets
 * offline, so short ones are refused. Not trimmed: a space is a character of the secret, but a
 * leading or trailing one is almost always a copy-and-paste accident.
 */
export const ZSharedSecret = z
  .string()
  .min(16, "O segredo precisa de ao menos 16 caracteres.")
  .max(256, "O segredo pode ter até 256 caracteres.")
  .refine((s) => s.trim() === s, "O segredo não pode começar nem terminar com espaço.")
  .refine((s) => !/[\x00-\x1F\x7F]/.test(s), "O segredo não pode conter caracteres de controle.");

export const ZToolFieldsSchema = z.object({
  title: ZTitle,
  shortDescription: ZShortDescription,
  longDescription: ZLongDescription,
  siteUrl: urlField("site", "Informe o site da ferramenta ou da edtech."),
  launchUrl: urlField("launch", "Informe o endereço de lançamento LTI."),
  consumerKey: ZConsumerKey,
});
export type TToolFields = z.output<typeof ZToolFieldsSchema>;
export type TToolFieldsInput = z.input<typeof ZToolFieldsSchema>;

/** "" or absent: keep (edit) / let the hub generate one (create). */
export const ZOptionalSharedSecret = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s === "" ? undefined : s))
  .pipe(ZSharedSecret.optional());

const ZRedirectUri = z.string().superRefine((value, ctx) => {
  const problem = urlProblem(value, "redirect");
  if (problem) ctx.addIssue({ code: "custom", message: `${value}: ${problem}` });
});

/**
 * Redirect URIs are compared by exact string at the authorization screen (DESIGN.md), so they
 * are stored exactly as typed, one per line; only surrounding blanks and empty lines go.
 */
export const ZRedirectUrisSchema = z
  .union([z.string(), z.array(z.string())], { message: "Informe ao menos um endereço de retorno." })
  .transform((raw) => (Array.isArray(raw) ? raw : raw.split(/\r?\n/)).map((line) => line.trim()).filter((line) => line !== ""))
  .pipe(
    z
      .array(ZRedirectUri)
      .min(1, "Informe ao menos um endereço de retorno.")
      .max(MAX_REDIRECT_URIS, `Informe no máximo ${MAX_REDIRECT_URIS} endereços de retorno.`)
      .refine((uris) => new Set(uris).size === uris.length, "Há endereços de retorno repetidos."),
  );

const ZOptionalHomepage = z
  .string()
  .trim()
  .optional()
  .transform((s) => (s ? s : undefined))
  .superRefine((value, ctx) => {
    const problem = value === undefined ? null : urlProblem(value, "homepage");
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const ZApplicationFieldsSchema = z.object({
  name: z.string({ message: "Informe o nome da aplicação." }).trim().min(1, "Informe o nome da aplicação.").max(100, "O nome pode ter até 100 caracteres."),
  description: z.string().trim().max(500, "A descrição pode ter até 500 caracteres.").optional().default(""),
  homepageUrl: ZOptionalHomepage,
  redirectUris: ZRedirectUrisSchema,
  defaultResponseType: z.enum(RESPONSE_TYPES, { message: "Escolha code, access_token ou id_token." }),
});
export type TApplicationFields = z.output<typeof ZApplicationFieldsSchema>;
export type TApplicationFieldsInput = z.input<typeof ZApplicationFieldsSchema>;
/** The application form's fields as they arrive, unchecked: parseApplicationInput checks them all at once. */
export type TApplicationFieldsForm = { readonly [K in keyof TApplicationFieldsInput]?: unknown };

export const ZApiKeyNameSchema = z.string().trim().max(100, "O nome pode ter até 100 caracteres.").optional().default("");

export const ZIdSchema = z.guid({ message: "Identificador inválido." });

// ---------------------------------------------------------------- forms (server actions)
// FormData read as text, as the services take it: each service checks its own input
// (parseApplicationInput, parseToolInput) and names the fields that are wrong.

/** The ids and choices a developer form carries besides the entity's fields. */
export const ZDeveloperFormSchema = z.object({
  edtechId: ZFormText,
  applicationId: ZFormText,
  toolId: ZFormText,
  apiKeyId: ZFormText,
  name: ZFormText,
  confirmName: ZFormText,
  status: ZFormText.transform((s) => (s === "active" ? "active" : "withdrawn")),
});

/** An application's own fields. */
export const ZApplicationFormSchema = z.object({
  name: ZFormText,
  description: ZFormText,
  homepageUrl: ZFormText,
  redirectUris: ZFormText,
  defaultResponseType: ZFormText,
});

/** A tool's fields, secret and logo file (null when none was chosen). */
export const ZToolFormSchema = z
  .object({
    title: ZFormText,
    shortDescription: ZFormText,
    longDescription: ZFormText,
    siteUrl: ZFormText,
    launchUrl: ZFormText,
    consumerKey: ZFormText,
    sharedSecret: ZFormText,
    generateNewSecret: ZFormText.transform((s) => s === "1"),
    logo: ZFormFile,
  })
  .transform(({ sharedSecret, generateNewSecret, logo, ...fields }) => ({ fields, sharedSecret, generateNewSecret, logo }));
