import { toAppError } from "@/lib/server/http/error-response";
import { CommitOutcomeUnknownError } from "@/lib/server/db/transaction";
import { log } from "@/lib/server/log.mjs";
import type { TImportKind } from "@/lib/validations/management";
import type { TManagerScope } from "./resolve-manager-scope";
import { runImport, type TImportResult } from "./run-import";
import type { TImportProgress } from "./validate-import";

export type TImportMessage = ({ type: "progress" } & TImportProgress) | ({ type: "result" } & TImportResult) | { type: "error"; message: string };

/**
 * runImport as a stream of NDJSON lines — progress while it works, then one result line — so the
 * page can show a progress bar on large files. A failure after the stream started is a final
 * `error` line (the transaction has rolled back: nothing was imported).
 */
export function streamImport(options: { scope: TManagerScope; institutionId: string; kind: TImportKind; csv: string; dryRun: boolean }): ReadableStream<Uint8Array> {
  return streamImportRun((onProgress) => runImport({ ...options, onProgress }));
}

/** Any import (a CSV kind, a OneRoster zip) as the same NDJSON stream. */
export function streamImportRun(run: (onProgress: (progress: TImportProgress) => void) => Promise<TImportResult>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      const send = (message: TImportMessage) => controller.enqueue(encoder.encode(`${JSON.stringify(message)}\n`));
      try {
        const result = await run((p) => send({ type: "progress", ...p }));
        send({ type: "result", ...result });
      } catch (error) {
        const appError = toAppError(error);
        if (appError.code === "internal") log().error({ err: error }, "Import failed");
        // Only a failure before the COMMIT was sent is known to have written nothing.
        const message =
          error instanceof CommitOutcomeUnknownError
            ? error.message
            : appError.code === "internal"
              ? "A importação falhou e nada foi gravado. Tente novamente."
              : `${appError.message} Nada foi gravado.`;
        send({ type: "error", message });
      }
      controller.close();
    },
  });
}
