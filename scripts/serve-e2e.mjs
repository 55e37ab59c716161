// The server Playwright tests run against: the production build on its own fresh database
// (a new PGlite directory, or a new PostgreSQL database when DATABASE_URL is set), seeded.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { root, run } from "./lib/steps.mjs";
import { serverSpawn } from "./lib/server-command.mjs";

const port = process.env.E2E_PORT ?? "3100";
// A webhook endpoint failing for 15 s is disabled (a day in production), so e2e/webhooks.spec.ts
// can watch the persistent-failure path end to end.
const env = { NODE_ENV: "production", PORT: port, HUB_BASE_URL: `http://localhost:${port}`, NEXT_TELEMETRY_DISABLED: "1", DEMO_TOOL: "1", HUB_WEBHOOK_DISABLE_AFTER_SECONDS: "15" };

if (process.env.DATABASE_URL) {
  const admin = new URL(process.env.DATABASE_URL);
  const e2e = new URL(process.env.DATABASE_URL);
  e2e.pathname = "/hub_e2e";
  const sql = (q) => run("npx", ["tsx", "scripts/sql.ts", admin.toString(), q]);
  sql("DROP DATABASE IF EXISTS hub_e2e WITH (FORCE)");
  sql("CREATE DATABASE hub_e2e");
  env.DATABASE_URL = e2e.toString();
  env.HUB_SECRET ??= process.env.HUB_SECRET ?? "e2e-secret-e2e-secret-e2e-secret-e2e-secret";
} else {
  env.HUB_DATA_DIR = path.join(root, ".data", `e2e-${port}`);
  rmSync(env.HUB_DATA_DIR, { recursive: true, force: true });
}

run("npx", ["tsx", "scripts/prepare-db.ts"], { env });
// The production server, as `npm start` runs it (server.mjs reads PORT from env).
const server = spawn(...serverSpawn({ ...process.env, ...env }, { cwd: root, stdio: "inherit" }));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
