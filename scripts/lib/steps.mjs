// Steps shared by `npm start` and `npm test`. Plain Node (no dependencies): they run before
// node_modules exists. Each step is skipped when its inputs have not changed since it last ran.
import { spawn, spawnSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..", "..");
const stampDir = path.join(root, "node_modules", ".cache", "hub");

export function run(cmd, args, options = {}) {
  const env = { ...process.env, ...options.env };
  for (const name of options.unset ?? []) delete env[name];
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) exitFailed([cmd, ...args].join(" "), result.status, result.signal);
}

/** Says which command failed and exits with its status. */
function exitFailed(command, status, signal) {
  console.error(`\n✗ ${command} failed (exit ${status ?? signal}).`);
  process.exit(status ?? 1);
}

/**
 * Runs commands side by side (each `[title, cmd, args]`), then prints each one's output under its
 * title, in the order given, so the logs do not interleave; exits like `run` if any failed.
 * @param {Array<[string, string, string[]]>} commands
 */
export async function runTogether(commands) {
  const results = await Promise.all(
    commands.map(
      ([title, cmd, args]) =>
        new Promise((resolve) => {
          const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: process.env });
          /** @type {Buffer[]} */
          const output = [];
          child.stdout.on("data", (chunk) => output.push(chunk));
          child.stderr.on("data", (chunk) => output.push(chunk));
          child.on("close", (status, signal) => resolve({ title, command: [cmd, ...args].join(" "), status, signal, output: Buffer.concat(output) }));
        }),
    ),
  );
  for (const result of results) {
    console.log(`▸ ${result.title}`);
    process.stdout.write(result.output);
  }
  const failed = results.find((r) => r.status !== 0);
  if (failed) exitFailed(failed.command, failed.status, failed.signal);
}

const SKIP = new Set(["node_modules", ".next", "generated", ".data", ".tmp", ".git", ".DS_Store"]);

export function hashFiles(entries) {
  const hash = createHash("sha256");
  const visit = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        if (SKIP.has(name)) continue;
        visit(path.join(p, name));
      }
    } else {
      hash.update(path.relative(root, p)).update("\0").update(readFileSync(p)).update("\0");
    }
  };
  for (const e of entries) visit(path.join(root, e));
  return hash.digest("hex");
}

function stamp(name) {
  const file = path.join(stampDir, name);
  return { read: () => (existsSync(file) ? readFileSync(file, "utf8") : ""), write: (v) => { mkdirSync(stampDir, { recursive: true }); writeFileSync(file, v); } };
}

/**
 * npm install when node_modules is missing or the lockfile changed since the last install.
 * Not `npm ci`: npm 11 refuses this lockfile's other-platform optional packages (swc, oxide)
 * as "missing"; `npm install` still installs exactly the locked versions.
 */
export function ensureInstalled() {
  const lockHash = hashFiles(["package-lock.json", "package.json"]);
  const s = stamp("install");
  if (existsSync(path.join(root, "node_modules", ".package-lock.json")) && s.read() === lockHash) return;
  console.log("▸ Installing dependencies…");
  run("npm", ["install", "--no-audit", "--no-fund"]);
  stamp("install").write(lockHash);
}

/** prisma generate, offline: the CLI uses its WASM engine through prisma.config.ts. */
export function ensureGenerated() {
  const schemaHash = hashFiles(["prisma/schema.prisma", "package-lock.json"]);
  const s = stamp("generate");
  if (existsSync(path.join(root, "lib", "generated", "prisma", "client.ts")) && s.read() === schemaHash) return;
  console.log("▸ Generating the Prisma client…");
  run("npx", ["prisma", "generate"], {
    env: { PRISMA_CLI_QUERY_ENGINE_TYPE: "client", DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://unused/unused", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  s.write(schemaHash);
}

const BUILD_INPUTS = ["app", "components", "lib", "prisma/schema.prisma", "types", "public", "next.config.mjs", "postcss.config.mjs", "package-lock.json"];

/**
 * next build when any source changed since the last build.
 * @param {{ typechecked?: boolean }} [options] `typechecked`: the caller has just typechecked these
 *   sources with Next's route types (npm test), so `next build` skips its own pass of the same
 *   check (35 s here).
 */
export function ensureBuilt(options = {}) {
  // next build rewrites tsconfig.json's include list (per build folder); only compilerOptions matter.
  const compilerOptions = JSON.stringify(JSON.parse(readFileSync(path.join(root, "tsconfig.json"), "utf8")).compilerOptions);
  const sourceHash = createHash("sha256").update(hashFiles(BUILD_INPUTS)).update(compilerOptions).digest("hex");
  const distDir = path.join(root, process.env.HUB_NEXT_DIST_DIR || ".next");
  const marker = path.join(distDir, "hub-source-hash");
  if (existsSync(path.join(distDir, "BUILD_ID")) && existsSync(marker) && readFileSync(marker, "utf8") === sourceHash) return;
  console.log("▸ Building the hub (next build)…");
  // The build needs no database: pages are rendered per request. Without DATABASE_URL it never
  // asks for the production-only HUB_SECRET while prerendering the not-found page.
  const env = { NEXT_TELEMETRY_DISABLED: "1", ...(options.typechecked ? { HUB_BUILD_TYPECHECKED: "1" } : {}) };
  run("npx", ["next", "build"], { env, unset: ["DATABASE_URL", "HUB_SECRET"] });
  writeFileSync(marker, sourceHash);
}

/** What scripts/prepare-db.ts's work depends on, besides the database and the secrets. */
const PREPARE_INPUTS = ["prisma/migrations", "scripts/prepare-db.ts", "lib/server/db/migrate.ts", "lib/server/crypto"];

/**
 * The embedded database's preparation record: a file inside its PGlite directory (deleting the
 * database deletes it) holding a digest of what scripts/prepare-db.ts prepared it with, and that
 * digest now: the migrations and the preparation's code, the secrets it re-seals with (HUB_SECRET,
 * HUB_PREVIOUS_SECRETS, or the embedded install's own; as an HMAC, never the secrets themselves)
 * and HUB_SEED. Null for PostgreSQL, which is prepared on every start: other instances share it,
 * and nothing on this machine says what it holds.
 * @param {Record<string, string | undefined>} [environment]
 */
export function embeddedPreparation(environment = process.env) {
  if (environment.DATABASE_URL) return null;
  const dataDir = path.resolve(root, environment.HUB_DATA_DIR || ".data");
  const secretFile = path.join(dataDir, "hub-secret");
  const secrets = [environment.HUB_SECRET ?? "", environment.HUB_PREVIOUS_SECRETS ?? "", existsSync(secretFile) ? readFileSync(secretFile, "utf8").trim() : ""];
  const value = createHash("sha256")
    .update(hashFiles(PREPARE_INPUTS))
    .update("\0")
    .update(createHmac("sha256", secrets.join("\0")).update("hub-prepared").digest("hex"))
    .update("\0")
    .update(environment.HUB_SEED ?? "")
    .digest("hex");
  return { file: path.join(dataDir, "pglite", "hub-prepared"), value };
}

/**
 * Whether the embedded database was prepared with exactly what it would be prepared with now.
 * @param {Record<string, string | undefined>} [environment]
 */
export function isPrepared(environment = process.env) {
  const preparation = embeddedPreparation(environment);
  return preparation !== null && existsSync(preparation.file) && readFileSync(preparation.file, "utf8") === preparation.value;
}

/**
 * scripts/prepare-db.ts (migrations, the demo seed on an empty database, identity roots, re-sealing)
 * unless the embedded database was prepared with the same inputs: a second `npm start` then saves
 * the preparation's own start-up, about 3 s of the 5 it took (docs/performance.md, "Start-up").
 */
export function ensurePrepared(env = {}) {
  if (isPrepared({ ...process.env, ...env })) return;
  console.log("▸ Preparing the database…");
  run("npx", ["tsx", "scripts/prepare-db.ts"], { env });
}
