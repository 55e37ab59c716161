import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "@/test/database";
import { pruneNonces } from "./prune-nonces";
import { NONCE_RETENTION_SECONDS, rememberNonce } from "./remember-nonce";

const t = setupTestDatabase();

describe("rememberNonce: an atomic first-seen check per consumer key", () => {
  it("is true the first time and false for the same key and nonce again", async () => {
    expect(await rememberNonce({ consumerKey: "k1", nonce: "n-1" })).toBe(true);
    expect(await rememberNonce({ consumerKey: "k1", nonce: "n-1" })).toBe(false);
    expect(await rememberNonce({ consumerKey: "k1", nonce: "n-1" })).toBe(false);
  });

  it("scopes nonces per consumer key", async () => {
    expect(await rememberNonce({ consumerKey: "k2", nonce: "shared" })).toBe(true);
    expect(await rememberNonce({ consumerKey: "k3", nonce: "shared" })).toBe(true);
  });

  it("lets exactly one of many concurrent inserts of one nonce win", async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => rememberNonce({ consumerKey: "k4", nonce: "race" })));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("keeps nonces for 2 × the ±300 s window, and pruning drops only older ones", async () => {
    expect(NONCE_RETENTION_SECONDS).toBe(600);
    await rememberNonce({ consumerKey: "k5", nonce: "old" });
    await rememberNonce({ consumerKey: "k5", nonce: "recent" });
    await t.db.sql.query(`UPDATE "LtiNonce" SET "createdAt" = now() - interval '601 seconds' WHERE "consumerKey" = 'k5' AND nonce = 'old'`);
    await t.db.sql.query(`UPDATE "LtiNonce" SET "createdAt" = now() - interval '590 seconds' WHERE "consumerKey" = 'k5' AND nonce = 'recent'`);
    expect(await pruneNonces({ olderThanSeconds: NONCE_RETENTION_SECONDS })).toBeGreaterThanOrEqual(1);
    const left = await t.db.prisma.ltiNonce.findMany({ where: { consumerKey: "k5" }, select: { nonce: true } });
    expect(left.map((n) => n.nonce)).toEqual(["recent"]);
    // A pruned nonce is new again; by then its timestamp is outside the window and the verifier refuses it first.
    expect(await rememberNonce({ consumerKey: "k5", nonce: "old" })).toBe(true);
    expect(await rememberNonce({ consumerKey: "k5", nonce: "recent" })).toBe(false);
  });
});
