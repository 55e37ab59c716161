import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { filesUnder } from "./test/files";

const root = fileURLToPath(new URL("./", import.meta.url));

// Files share one module graph per worker (`isolate: false`): a test file no longer pays for
// importing Prisma, Next's server and the hub's modules again, which took a third of each run
// (docs/testing.md, "Isolation"). What a file changes in process.env is put back before the next
// one (test/per-file-setup.ts), and caches of what a database holds are kept per database. A file
// that replaces a module with vi.mock needs the module graph to itself, or the modules earlier
// files imported keep the real one: those files run in a project of their own, isolated.
const files = filesUnder(root, ".test.ts", new Set(["node_modules", ".next", "e2e", ".data", ".tmp", ".git"])).map((file) => path.relative(root, file));
const mocking = files.filter((file) => /\bvi\.mock\(/.test(readFileSync(path.join(root, file), "utf8")));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    environment: "node",
    // PGlite databases are created per test file; keep the 2-core machine from thrashing.
    maxWorkers: 2,
    // Migrates one database that every test file's own database starts from.
    globalSetup: ["./test/global-setup.ts"],
    setupFiles: ["./test/per-file-setup.ts"],
    // The default report, then a digest of what failed as the last lines (CI logs show the tail).
    reporters: ["default", "./test/reporters/failure-digest.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "shared", include: files.filter((file) => !mocking.includes(file)), isolate: false } },
      { extends: true, test: { name: "isolated", include: mocking, isolate: true } },
    ],
  },
});
