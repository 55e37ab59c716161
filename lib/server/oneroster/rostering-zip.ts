// A OneRoster 1.2 CSV bulk export as a streamed zip: manifest.csv, then one file per collection,
// written chunk by chunk as the export's collections yield them (export-rostering.ts), deflated
// as they go. Nothing holds a whole file: a chunk of rows is deflated and handed to the response
// before the next chunk is read, so memory stays flat whatever the size of the school.
import { Zip, ZipDeflate } from "fflate";
import { csvLine, CSV_HEADERS, manifestRows, objectToRow, roleRows, type TCsvFile, type TFileMode } from "@/lib/oneroster/csv-binding";
import type { TExportCollection, TRosteringExport } from "./export-rostering";
import { log } from "@/lib/server/log.mjs";

export const ZIP_SOURCE = { systemName: "Hub Educacional", systemCode: "hub" } as const;

/** The files of a bulk export, in order, and the collection each is read from. */
const FILES: readonly { file: TCsvFile; collection: TExportCollection }[] = [
  { file: "orgs", collection: "orgs" },
  { file: "academicSessions", collection: "academicSessions" },
  { file: "courses", collection: "courses" },
  { file: "classes", collection: "classes" },
  { file: "users", collection: "users" },
  { file: "roles", collection: "users" },
  { file: "enrollments", collection: "enrollments" },
  { file: "demographics", collection: "demographics" },
];

const encoder = new TextEncoder();

/** The rows of one chunk of objects for `file`. A bulk file lists what exists: records deleted within the tombstone window are left out. */
function rowsOf(file: TCsvFile, objects: Record<string, unknown>[]): string[][] {
  const live = objects.filter((object) => object.status !== "tobedeleted");
  return file === "roles" ? live.flatMap((user) => roleRows(user, "bulk")) : live.map((object) => objectToRow(file, object, "bulk"));
}

/** Every piece of the zip, in order, as fflate makes them. */
async function* zipPieces(source: TRosteringExport, options: { demographics: boolean }): AsyncGenerator<Uint8Array> {
  const pending: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else pending.push(data);
  });
  const drain = function* () {
    if (failure) throw failure;
    while (pending.length > 0) yield pending.shift()!;
  };
  const files = FILES.filter((f) => f.file !== "demographics" || options.demographics);
  const modes: Partial<Record<TCsvFile, TFileMode>> = Object.fromEntries(files.map((f) => [f.file, "bulk"]));

  const add = (name: string) => {
    const entry = new ZipDeflate(name, { level: 6 });
    entry.mtime = new Date();
    zip.add(entry);
    return entry;
  };
  const manifest = add("manifest.csv");
  manifest.push(encoder.encode(manifestRows(modes, ZIP_SOURCE).map(csvLine).join("")), true);
  yield* drain();

  for (const { file, collection } of files) {
    const entry = add(`${file}.csv`);
    entry.push(encoder.encode(csvLine(CSV_HEADERS[file])));
    for await (const objects of source.collection(collection)) {
      entry.push(encoder.encode(rowsOf(file, objects).map(csvLine).join("")));
      yield* drain();
    }
    entry.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}

/** The zip as a byte stream, produced as the reader pulls it (backpressure: the next chunk is read only when the last one was taken). */
export function rosteringZipStream(source: TRosteringExport, options: { demographics: boolean; onError?: (error: unknown) => void }): ReadableStream<Uint8Array> {
  const pieces = zipPieces(source, options);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await pieces.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        options.onError?.(error);
        // A zip cut short is not a valid zip: the client sees a failed download, never a partial file it could take for whole.
        controller.error(error);
      }
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}

/** The export as a download: the streamed zip, named `oneroster-<name>-<date>.zip`, never cached. */
export function rosteringZipResponse(source: TRosteringExport, options: { demographics: boolean; name: string }): Response {
  const body = rosteringZipStream(source, { demographics: options.demographics, onError: (error) => log().error({ err: error }, "OneRoster CSV export failed") });
  return new Response(body, {
    headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${zipFileName(options.name)}"`, "Cache-Control": "no-store" },
  });
}

/** The download's file name: `oneroster-<what>-<date>.zip`. */
export function zipFileName(what: string, now = new Date()): string {
  return `oneroster-${what.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 60)}-${now.toISOString().slice(0, 10)}.zip`;
}
