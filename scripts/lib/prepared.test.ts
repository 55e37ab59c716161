// `npm start` prepares the embedded database only when something the preparation depends on
// changed (ensurePrepared): these run scripts/prepare-db.ts for real, on a new PGlite directory.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedPreparation, isPrepared, root } from "./steps.mjs";

const dataDir = mkdtempSync(path.join(tmpdir(), "hub-prepared-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The embedded install in `dataDir`, without the demo seed (its ten seconds prove nothing here). */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HUB_DATA_DIR: dataDir, HUB_SEED: "0", NODE_ENV: "production", ...extra };
  delete env.DATABASE_URL;
  delete env.HUB_SECRET;
  delete env.HUB_PREVIOUS_SECRETS;
  return { ...env, ...extra };
}

function node(script: string, env: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, env, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** `npm start`'s preparation step, as start.mjs runs it; returns what it printed. */
const ensurePrepared = (env: NodeJS.ProcessEnv) => node(`import { ensurePrepared } from "./scripts/lib/steps.mjs"; ensurePrepared();`, env);

const NEW_SECRET = "a-rotated-secret-a-rotated-secret-0123";
/** The embedded install's own secret, kept beside its data. */
const ownSecret = () => readFileSync(path.join(dataDir, "hub-secret"), "utf8").trim();
/** A rotation as docs/security.md has it: the new secret, and the one it replaces among the previous ones. */
const rotated = (extra: Record<string, string> = {}) => environment({ HUB_SECRET: NEW_SECRET, HUB_PREVIOUS_SECRETS: ownSecret(), ...extra });

describe("ensurePrepared: npm start's database step", () => {
  it("prepares a new embedded database and records with what", { timeout: 60_000 }, () => {
    expect(isPrepared(environment())).toBe(false);
    expect(ensurePrepared(environment())).toMatch(/Preparing the database[\s\S]*database ready \(pglite\)/);
    const preparation = embeddedPreparation(environment())!;
    expect(path.dirname(preparation.file)).toBe(path.join(dataDir, "pglite"));
    expect(readFileSync(preparation.file, "utf8")).toBe(preparation.value);
    expect(isPrepared(environment())).toBe(true);
  });

  it("skips the preparation on the next start when nothing changed", { timeout: 30_000 }, () => {
    expect(ensurePrepared(environment())).toBe("");
  });

  it("prepares again when the secrets change (re-sealing needs it), then records the new ones", { timeout: 60_000 }, () => {
    expect(isPrepared(rotated())).toBe(false);
    expect(isPrepared(environment({ HUB_PREVIOUS_SECRETS: NEW_SECRET }))).toBe(false);
    expect(ensurePrepared(rotated())).toMatch(/Preparing the database[\s\S]*database ready/);
    expect(isPrepared(rotated())).toBe(true);
    expect(isPrepared(environment())).toBe(false);
    expect(ensurePrepared(rotated())).toBe("");
  });

  it("prepares again when HUB_SEED changes: an unseeded database is seeded once seeding is asked for", () => {
    expect(isPrepared(rotated({ HUB_SEED: "1" }))).toBe(false);
  });

  it("never keeps the secrets themselves in the record", () => {
    const record = readFileSync(embeddedPreparation(environment())!.file, "utf8");
    expect(record).toMatch(/^[0-9a-f]{64}$/);
    expect(record).not.toContain(NEW_SECRET);
    expect(record).not.toContain(ownSecret());
  });

  it("prepares again when the database directory is gone: the record lives inside it", () => {
    rmSync(path.join(dataDir, "pglite"), { recursive: true, force: true });
    expect(isPrepared(rotated())).toBe(false);
  });

  it("always prepares PostgreSQL: other instances share it, and nothing here says what it holds", () => {
    expect(embeddedPreparation({ DATABASE_URL: "postgresql://localhost/hub" })).toBeNull();
    expect(isPrepared({ DATABASE_URL: "postgresql://localhost/hub" })).toBe(false);
  });
});
