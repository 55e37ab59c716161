import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./scripts/lib/chromium.mjs";

const port = Number(process.env.E2E_PORT ?? 3100);
// Debian's Chromium (Playwright cannot download its own browser here): see scripts/lib/chromium.mjs.
// The flags keep it from reaching for the network at start-up, which this machine refuses.
export default defineConfig({
  testDir: "e2e",
  // Every test names or creates what it needs, so tests run in any order and side by side.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // scripts/test-repeat.mjs asks for a JSON report too, to name every failed test.
  reporter: process.env.E2E_JSON_REPORT ? [["list"], ["json", { outputFile: process.env.E2E_JSON_REPORT }]] : [["list"]],
  outputDir: ".tmp/e2e-results",
  use: {
    baseURL: `http://localhost:${port}`,
    locale: "pt-BR",
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  // The browser suite first; then the specs that load the machine or start servers of their own
  // (outages, shutdown, three instances behind HAProxy), so they cannot slow the others; then the
  // fuzz run, alone, because it checks that nothing it sent changed the school data.
  projects: [
    { name: "browser", testIgnore: [/operations\.spec/, /database-outage\.spec/, /fleet\.spec/, /fuzz\.spec/] },
    { name: "operations", testMatch: [/operations\.spec/, /database-outage\.spec/, /fleet\.spec/], dependencies: ["browser"] },
    { name: "fuzz", testMatch: /fuzz\.spec/, dependencies: ["operations"] },
  ],
  webServer: {
    command: "node scripts/serve-e2e.mjs",
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "pipe",
    stderr: "pipe",
    env: { E2E_PORT: String(port) },
  },
});
