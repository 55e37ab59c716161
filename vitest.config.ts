import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**", ".tmp/**"],
    environment: "node",
    // PGlite databases are created per test file; keep the 2-core machine from thrashing.
    maxWorkers: 2,
    // Migrates one database that every test file's own database starts from.
    globalSetup: ["./test/global-setup.ts"],
    // The default report, then a digest of what failed as the last lines (CI logs show the tail).
    reporters: ["default", "./test/reporters/failure-digest.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
