import { AppError } from "@/lib/errors";
import { ZOptionalSharedSecret, ZToolFieldsSchema, type TToolFields, type TToolFieldsInput } from "@/lib/validations/developer";
import { validateLogo, type TLogoContentType } from "./validate-logo";

export interface TParsedToolInput {
  fields: TToolFields;
  sharedSecret: string | undefined;
  logo: { contentType: TLogoContentType; bytes: Buffer } | null;
}

export interface ParseToolInputOptions {
  fields: Partial<TToolFieldsInput>;
  sharedSecret?: string;
  /** null: no file chosen. */
  logo: Uint8Array | null;
  logoRequired: boolean;
}

/**
 * Checks every field of the tool form at once and throws one 400 naming each bad field, so the
 * form can show all its messages together and nothing is written.
 */
export function parseToolInput({ fields, sharedSecret, logo, logoRequired }: ParseToolInputOptions): TParsedToolInput {
  const errors: Record<string, string> = {};
  const parsed = ZToolFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "_")] ??= issue.message;
  }
  const secret = ZOptionalSharedSecret.safeParse(sharedSecret);
  if (!secret.success) errors.sharedSecret = secret.error.issues[0]?.message ?? "Segredo inválido.";
  let storedLogo: TParsedToolInput["logo"] = null;
  if (logo === null || logo.byteLength === 0) {
    if (logoRequired) errors.logo = "Envie o logo da ferramenta (PNG, JPEG ou SVG).";
  } else {
    const checked = validateLogo(logo);
    if (checked.ok) storedLogo = { contentType: checked.contentType, bytes: checked.bytes };
    else errors.logo = checked.message;
  }
  if (Object.keys(errors).length > 0 || !parsed.success || !secret.success) {
    throw new AppError("bad_request", "Revise os campos destacados.", errors);
  }
  return { fields: parsed.data, sharedSecret: secret.data, logo: storedLogo };
}
