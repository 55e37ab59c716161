// The repository's own docs carry the interface reference: nothing a user reads (README, docs/)
// may send them to a file outside the repository, such as the contract the Hub was built from.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = process.cwd();

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

const files = [path.join(root, "README.md"), ...markdownFiles(path.join(root, "docs"))];

describe("the docs stand on their own", () => {
  it("finds the README and the docs", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files.map((f) => [path.relative(root, f), f]))("%s links only inside the repository", (_name, file) => {
    const text = readFileSync(file, "utf8");
    const outside = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((target) => !/^(https?:|mailto:|#)/.test(target))
      .filter((target) => !path.resolve(path.dirname(file), target.split("#")[0]!).startsWith(root + path.sep));
    expect(outside).toEqual([]);
    expect(text).not.toMatch(/\.\.\/shared\b|hub-interfaces\.md/);
  });
});
