import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

let generated: { file: string; secret: string } | undefined;

/**
 * The current root secret (encryption at rest, session signing): everything new is sealed or
 * signed with it. HUB_SECRET when set; otherwise the embedded install keeps a random one beside
 * its data so `npm start` needs no env file. Several instances on one PostgreSQL must share
 * HUB_SECRET. Pseudonyms and pairwise ids do not use it directly: they derive from identity
 * roots that survive its rotation (identity-root.ts).
 */
export function hubSecret(): string {
  const e = env();
  if (e.HUB_SECRET) return e.HUB_SECRET;
  if (e.DATABASE_URL && e.NODE_ENV === "production") {
    throw new Error("HUB_SECRET is required when DATABASE_URL is set in production.");
  }
  const file = path.resolve(e.HUB_DATA_DIR, "hub-secret");
  if (generated?.file === file) return generated.secret;
  let secret: string;
  try {
    secret = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    secret = randomBytes(32).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  }
  generated = { file, secret };
  return secret;
}

/**
 * The key ring: the current secret first, then the ones it replaced (HUB_PREVIOUS_SECRETS), which
 * are only ever read with: sealed values and session cookies made before a rotation stay readable
 * until re-sealed (reseal-secrets.ts) or expired.
 */
export function hubSecretRing(): string[] {
  const current = hubSecret();
  return [current, ...env().HUB_PREVIOUS_SECRETS.filter((s) => s !== current)];
}
