// The repository's own docs carry the interface reference: nothing a user reads (README, docs/)
// may send them to a file outside the repository, such as the contract the Hub was built from.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "./files";

const root = process.cwd();

const files = [path.join(root, "README.md"), ...filesUnder(path.join(root, "docs"), ".md")];

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
