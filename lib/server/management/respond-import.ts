import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { toResponse } from "@/lib/server/http/error-response";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { isSameOriginPost } from "@/lib/server/http/same-origin";
import { IMPORT_MAX_BYTES, ZImportKindSchema } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import { resolveManagerScope } from "./resolve-manager-scope";
import { importOneRoster, ONEROSTER_IMPORT_KIND } from "./oneroster-import/import-oneroster";
import { streamImport, streamImportRun } from "./stream-import";

const TOO_LARGE = "Arquivo grande demais (máximo 8 MB).";

/**
 * POST the CSV text (body) for ?tipo=<kind>[&validar=1], or a OneRoster 1.2 zip for
 * ?tipo=oneroster (its bytes as the body): answers NDJSON lines with the progress,
 * then the result (every bad row, or the count imported). Same-origin only: the session cookie
 * alone must not let another site start an import.
 */
export async function respondImport(request: NextRequest, institutionId: string): Promise<Response> {
  try {
    if (!isSameOriginPost(request.headers, request.nextUrl.origin)) throw new AppError("forbidden", "Origem não permitida.");
    const user = await getCurrentUser();
    if (!user?.profile) throw new AppError("unauthorized", "Entre novamente para importar.");
    const scope = await resolveManagerScope({ personId: user.personId, profileId: user.profile.id }).catch((error: unknown) => {
      // Not a manager here: the same answer as an unknown institution. Anything else (a database
      // outage) keeps its own answer.
      throw error instanceof AppError ? new AppError("not_found", "Instituição não encontrada.") : error;
    });
    requireInReach({ scope, institutionId });
    if (request.nextUrl.searchParams.get("tipo") === ONEROSTER_IMPORT_KIND) {
      if (Number(request.headers.get("content-length") ?? 0) > IMPORT_MAX_BYTES) throw new AppError("payload_too_large", TOO_LARGE);
      const zip = new Uint8Array(await request.arrayBuffer());
      if (zip.byteLength > IMPORT_MAX_BYTES) throw new AppError("payload_too_large", TOO_LARGE);
      const dryRun = request.nextUrl.searchParams.get("validar") === "1";
      const body = streamImportRun((onProgress) => importOneRoster({ scope, institutionId, zip, dryRun, onProgress }));
      return new NextResponse(body, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" } });
    }
    const kind = ZImportKindSchema.safeParse(request.nextUrl.searchParams.get("tipo"));
    if (!kind.success) throw new AppError("bad_request", "Tipo de arquivo desconhecido.", { tipo: "Escolha o tipo de arquivo" });
    if (Number(request.headers.get("content-length") ?? 0) > IMPORT_MAX_BYTES) throw new AppError("payload_too_large", TOO_LARGE);
    const csv = await request.text();
    if (csv.length > IMPORT_MAX_BYTES) throw new AppError("payload_too_large", TOO_LARGE);
    const body = streamImport({ scope, institutionId, kind: kind.data, csv, dryRun: request.nextUrl.searchParams.get("validar") === "1" });
    return new NextResponse(body, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" } });
  } catch (error) {
    return toResponse(error, { headers: { "Cache-Control": "no-store" } });
  }
}
