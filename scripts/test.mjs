// `npm test`: install what is missing, then lint, typecheck, unit + integration tests (Vitest)
// and the browser tests (Playwright in Chromium) against a production build.
// Runs against PGlite, or against PostgreSQL when DATABASE_URL is set.
// `npm test -- --only=vitest` (or lint, typecheck, e2e) runs one stage.
import { chromiumCandidates, chromiumPath } from "./lib/chromium.mjs";
import { HAPROXY_MISSING, haproxyPath } from "./lib/haproxy.mjs";
import { ensureBuilt, ensureGenerated, ensureInstalled, run, runTogether } from "./lib/steps.mjs";

const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const stage = (name) => !only || only.split(",").includes(name);
process.env.NEXT_TELEMETRY_DISABLED = "1";

ensureInstalled();
ensureGenerated();
const engine = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

// The typecheck covers what `next build` would check: the project, and Next's validator of each
// page's and route's exports (params, props), which `next typegen` writes without a build
// (tsconfig.typecheck.json adds it). The build then skips its own pass (ensureBuilt).
if (stage("typecheck")) run("npx", ["next", "typegen"], { unset: ["HUB_NEXT_DIST_DIR"] });
// Lint and typecheck side by side: each uses about one core and a half of the two for a while,
// so together they take 39 s here where one after the other took 71 s.
const checks = /** @type {Array<[string, string, string[]]>} */ ([
  ...(stage("lint") ? [["Lint (eslint)", "npx", ["eslint", ".", "--max-warnings=0"]]] : []),
  ...(stage("typecheck") ? [["Typecheck (tsc, with Next's route types)", "npx", ["tsc", "--noEmit", "-p", "tsconfig.typecheck.json"]]] : []),
]);
if (checks.length > 0) await runTogether(checks);
if (stage("vitest")) {
  console.log(`▸ Unit and integration tests (Vitest, ${engine})`);
  run("npx", ["vitest", "run"]);
}
if (stage("e2e")) {
  const chromium = chromiumPath();
  if (!chromium) {
    const looked = process.env.CHROMIUM_PATH ?? chromiumCandidates.join(" or ");
    console.error(`
✗ Browser tests need Chromium, and none was found at ${looked}.
  Install Debian's Chromium:   sudo apt-get update && sudo apt-get install -y chromium-headless-shell
  or point CHROMIUM_PATH at a Chromium/Chrome binary, then run npm test again.
  (Playwright cannot download its own browser on this network.)`);
    process.exit(1);
  }
  // On PostgreSQL the suite runs three instances behind HAProxy (e2e/fleet.spec.ts): without it, fail now.
  if (process.env.DATABASE_URL && !haproxyPath()) {
    console.error(`\n✗ ${HAPROXY_MISSING}`);
    process.exit(1);
  }
  ensureBuilt({ typechecked: stage("typecheck") });
  console.log(`▸ Browser tests (Playwright, ${chromium}, ${engine})`);
  run("npx", ["playwright", "test"]);
}
console.log("✓ All test stages passed.");
