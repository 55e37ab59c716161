import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

let cached: string | undefined;

/**
 * The root secret (encryption at rest, session signing, pseudonyms). HUB_SECRET when set;
 * otherwise the embedded install keeps a random one beside its data so `npm start` needs no
 * env file. Several instances on one PostgreSQL must share HUB_SECRET.
 */
export function hubSecret(): string {
  if (cached) return cached;
  const e = env();
  if (e.HUB_SECRET) return (cached = e.HUB_SECRET);
  if (e.DATABASE_URL && e.NODE_ENV === "production") {
    throw new Error("HUB_SECRET is required when DATABASE_URL is set in production.");
  }
  const file = path.resolve(e.HUB_DATA_DIR, "hub-secret");
  try {
    cached = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    cached = randomBytes(32).toString("base64url");
    writeFileSync(file, cached, { mode: 0o600, flag: "wx" });
  }
  return cached;
}
