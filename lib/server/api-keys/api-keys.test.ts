import { beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "@/lib/oauth/secret";
import { setupTestDatabase } from "@/test/database";
import { createApiKey } from "./create-api-key";
import { revokeApiKey } from "./revoke-api-key";
import { verifyApiKey } from "./verify-api-key";

const t = setupTestDatabase();
let applicationId = "";
let otherApplicationId = "";

beforeAll(async () => {
  const edtech = await t.db.prisma.edtech.create({ data: { name: "Edtech K", slug: "edtech-k" } });
  const app = (clientId: string) =>
    t.db.prisma.oAuthApplication.create({ data: { edtechId: edtech.id, name: clientId, clientId, clientSecretHash: "0".repeat(64), redirectUris: [] } });
  applicationId = (await app("k1")).id;
  otherApplicationId = (await app("k2")).id;
});

describe("createApiKey", () => {
  it("returns the key once, in the hub_<prefix>_<secret> format; stores only prefix and SHA-256", async () => {
    const { apiKey, key } = await createApiKey({ applicationId, name: " Produção " });
    expect(key).toMatch(/^hub_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ applicationId, name: "Produção", prefix: key.slice(0, 12), lastUsedAt: null, revokedAt: null });
    expect(apiKey).not.toHaveProperty("keyHash");
    const row = await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.keyHash).toBe(hashSecret(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(13));
  });

  it("refuses an unknown application", async () => {
    await expect(createApiKey({ applicationId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("verifyApiKey", () => {
  it("accepts a valid key and records lastUsedAt at most once a minute", async () => {
    const { apiKey, key } = await createApiKey({ applicationId });
    const t0 = new Date("2026-03-01T10:00:00Z");
    expect(await verifyApiKey({ key, now: t0 })).toMatchObject({ apiKeyId: apiKey.id, applicationId });
    const lastUsed = async () => (await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt?.toISOString();
    expect(await lastUsed()).toBe(t0.toISOString());
    await verifyApiKey({ key, now: new Date(t0.getTime() + 30_000) });
    expect(await lastUsed()).toBe(t0.toISOString());
    const t1 = new Date(t0.getTime() + 61_000);
    await verifyApiKey({ key, now: t1 });
    expect(await lastUsed()).toBe(t1.toISOString());
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["malformed", "not-a-key"],
    ["well-formed but unknown", `hub_deadbeef_${"A".repeat(43)}`],
  ])("refuses a %s key with 401 Unauthorized", async (_, key) => {
    await expect(verifyApiKey({ key })).rejects.toMatchObject({ code: "unauthorized", message: "Unauthorized" });
  });
});

describe("revokeApiKey", () => {
  it("a revoked key fails on the very next verification; revoking again keeps the first time", async () => {
    const { apiKey, key } = await createApiKey({ applicationId });
    await verifyApiKey({ key });
    const first = await revokeApiKey({ applicationId, apiKeyId: apiKey.id, now: new Date("2026-03-01T10:00:00Z") });
    expect(first.revokedAt?.toISOString()).toBe("2026-03-01T10:00:00.000Z");
    await expect(verifyApiKey({ key })).rejects.toMatchObject({ code: "unauthorized" });
    const again = await revokeApiKey({ applicationId, apiKeyId: apiKey.id });
    expect(again.revokedAt?.toISOString()).toBe("2026-03-01T10:00:00.000Z");
  });

  it("cannot revoke another application's key", async () => {
    const { apiKey, key } = await createApiKey({ applicationId });
    await expect(revokeApiKey({ applicationId: otherApplicationId, apiKeyId: apiKey.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(revokeApiKey({ applicationId, apiKeyId: "nope" })).rejects.toMatchObject({ code: "not_found" });
    await expect(verifyApiKey({ key })).resolves.toMatchObject({ apiKeyId: apiKey.id });
  });
});
