// The files under a folder whose names end with a suffix, found by walking it: for the Vitest
// config (test files) and for tests that read the repository's own files (docs).
import { readdirSync } from "node:fs";
import path from "node:path";

/** Full paths of the files under `dir` ending with `suffix`, skipping folders named in `skip`. */
export function filesUnder(dir: string, suffix: string, skip: ReadonlySet<string> = new Set()): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : filesUnder(full, suffix, skip);
    return entry.name.endsWith(suffix) ? [full] : [];
  });
}
