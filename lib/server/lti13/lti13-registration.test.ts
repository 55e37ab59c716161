import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { createTool } from "@/lib/server/developer/create-tool";
import { setupTestDatabase } from "@/test/database";
import { pngBytes, developersBeforeAll } from "@/test/fixtures/developer";
import { getLti13Registration, removeLti13Registration, saveLti13Registration } from "./lti13-registration";

process.env.HUB_BASE_URL = "https://hub.example.org";
resetEnvCache();

const t = setupTestDatabase();
const dev = developersBeforeAll("Dev");
let toolId = "";

const fields = {
  loginUrl: "https://tool13.example/login",
  targetLinkUri: "https://tool13.example/launch",
  redirectUris: "https://tool13.example/launch\nhttps://tool13.example/deep",
  jwksUrl: "https://tool13.example/keys",
  publicJwk: "",
  deepLinkingUrl: "",
};

beforeAll(async () => {
  const { tool } = await createTool({
    actorPersonId: dev.alice.personId,
    edtechId: dev.alice.edtechId,
    fields: { title: "T13", shortDescription: "c", longDescription: "l", siteUrl: "https://tool13.example", launchUrl: "https://tool13.example/lti10", consumerKey: "k13" },
    sharedSecret: "um-segredo-bem-longo-123",
    logo: pngBytes(64, 64),
  });
  toolId = tool.id;
});

describe("LTI 1.3 registration in /desenvolvedor", () => {
  it("a tool starts on LTI 1.0 (no registration)", async () => {
    expect(await getLti13Registration({ personId: dev.alice.personId, toolId })).toBeNull();
  });

  it("saving one shows back the platform facts; client and deployment ids stay the same across edits", async () => {
    const saved = await saveLti13Registration({ actorPersonId: dev.alice.personId, toolId, fields });
    expect(saved.redirectUris).toEqual(["https://tool13.example/launch", "https://tool13.example/deep"]);
    expect(saved.platform).toEqual({
      issuer: "https://hub.example.org",
      clientId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      deploymentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      authorizationEndpoint: "https://hub.example.org/lti13/authorize",
      tokenEndpoint: "https://hub.example.org/lti13/token",
      jwksUrl: "https://hub.example.org/.well-known/jwks.json",
    });
    const again = await saveLti13Registration({ actorPersonId: dev.alice.personId, toolId, fields: { ...fields, jwksUrl: "", publicJwk: JSON.stringify({ kty: "RSA", n: "x".repeat(342), e: "AQAB", d: "private!" }) } });
    expect(again.platform).toEqual(saved.platform);
    expect(again.jwksUrl).toBeNull();
    expect(again.publicJwk).toEqual({ kty: "RSA", n: "x".repeat(342), e: "AQAB" });
    expect(await t.db.prisma.auditLog.count({ where: { targetId: toolId, action: "tool.update" } })).toBe(2);
  });

  it("names each bad field: no keys, http outside localhost, a bad JWK", async () => {
    const error = await saveLti13Registration({ actorPersonId: dev.alice.personId, toolId, fields: { ...fields, jwksUrl: "", loginUrl: "http://tool13.example/login", redirectUris: "" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).fields).toMatchObject({ loginUrl: expect.any(String), redirectUris: expect.any(String) });
    const noKey = await saveLti13Registration({ actorPersonId: dev.alice.personId, toolId, fields: { ...fields, jwksUrl: "" } }).catch((e: unknown) => e);
    expect((noKey as AppError).fields).toMatchObject({ jwksUrl: expect.any(String) });
    const badJwk = await saveLti13Registration({ actorPersonId: dev.alice.personId, toolId, fields: { ...fields, publicJwk: "{" } }).catch((e: unknown) => e);
    expect((badJwk as AppError).fields).toMatchObject({ publicJwk: expect.any(String) });
  });

  it("another edtech's member can neither read nor write it", async () => {
    await expect(getLti13Registration({ personId: dev.bob.personId, toolId })).rejects.toMatchObject({ code: "not_found" });
    await expect(saveLti13Registration({ actorPersonId: dev.bob.personId, toolId, fields })).rejects.toMatchObject({ code: "not_found" });
    await expect(removeLti13Registration({ actorPersonId: dev.bob.personId, toolId })).rejects.toMatchObject({ code: "not_found" });
  });

  it("removing it returns the tool to LTI 1.0", async () => {
    await removeLti13Registration({ actorPersonId: dev.alice.personId, toolId });
    expect(await getLti13Registration({ personId: dev.alice.personId, toolId })).toBeNull();
  });
});
