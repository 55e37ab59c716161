// HUB_SECRET rotation (docs/security.md, "Rotating HUB_SECRET"): with the new secret current and
// the old one in HUB_PREVIOUS_SECRETS, everything sealed or signed before still opens; re-sealing
// moves every sealed value to the new secret; then the old secret can go. Pseudonyms and pairwise
// ids never change, including those partners received before identity roots existed.
import { createCipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as dataGet } from "@/app/manager/v1/data/[orgId]/route";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { verifyLaunch } from "@/lib/lti/verify-launch";
import { openSession, sealSession } from "@/lib/server/auth/session-cookie";
import { createPartner, grantAccess, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";
import { buildLaunch } from "@/lib/server/launch/build-launch";
import { createSchool, createTestTool, placeTool, shareWithTool, type TSchool } from "@/test/fixtures/launch";
import { getSigningKey } from "@/lib/server/oauth/signing-keys";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import { setupTestDatabase } from "@/test/database";
import { forgetLoadedIdentityRoots } from "@/lib/server/crypto/identity-root";
import { resealSecrets } from "@/lib/server/crypto/reseal-secrets";
import { decryptSecret, encryptSecret, secretKeyId } from "@/lib/server/crypto/secret-box";
import { UPSTREAM_SECRET_PURPOSE } from "@/lib/server/upstream/provider-row";

setupTestDatabase();

const OLD = "rotation-test-old-secret-0123456789abcdef";
const NEW = "rotation-test-new-secret-fedcba9876543210";

function useSecrets(current: string, previous: string[]) {
  process.env.HUB_SECRET = current;
  process.env.HUB_PREVIOUS_SECRETS = previous.join(",");
  resetEnvCache();
  // As after a restart: the roots are read again from the database, with the new ring.
  forgetLoadedIdentityRoots();
}

/** The sealing format before the key ring (v1, no key id), as stored by earlier versions. */
function sealV1(plain: string, purpose: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", createHash("sha256").update(`hub:${purpose}:`).update(secret).digest(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** A pseudonym as the hub computed it before identity roots: HMAC under HUB_SECRET itself. */
function legacyPseudonym(secret: string, applicationId: string, attribute: string, value: string): string {
  const key = createHmac("sha256", secret).update(`hub/data-api/pseudonym/v1\0${applicationId}`, "utf8").digest();
  return `u${createHmac("sha256", key).update(`${attribute}\0${value}`, "utf8").digest("hex").slice(0, 16)}@anonimo.invalid`;
}

let s: TSchool;
let partner: TPartner;
const tools: { id: string; consumerKey: string; secret: string; placementId: string }[] = [];

async function dataPage(): Promise<{ dados: Record<string, { id: string; registro: Record<string, unknown> }[]> }> {
  const request = new NextRequest(new URL(`http://hub.test/manager/v1/data/${s.schoolId}?only=usuario,turmaAluno`), { headers: { "x-api-key": partner.key } });
  const response = await dataGet(request, { params: Promise.resolve({ orgId: s.schoolId }) });
  expect(response.status).toBe(200);
  // The events only: the page's resume cursor moves with any later transaction.
  return { dados: ((await response.json()) as Awaited<ReturnType<typeof dataPage>>).dados };
}

async function launchVerifies(tool: (typeof tools)[number]): Promise<string> {
  const launch = await buildLaunch({ placementId: tool.placementId, profile: s.teacher });
  const verdict = await verifyLaunch(
    { method: "POST", url: launch.action, fields: launch.fields },
    { now: () => Math.floor(Date.now() / 1000), lookupSecret: async (key) => (key === tool.consumerKey ? tool.secret : null), rememberNonce: async () => true },
  );
  expect(verdict).toMatchObject({ ok: true });
  return new Map(launch.fields).get("user_id")!;
}

const sealedValues = async () => [
  ...(await db().tool.findMany({ select: { sharedSecretEnc: true } })).map((r) => r.sharedSecretEnc),
  ...(await db().signingKey.findMany({ select: { privateJwkEnc: true } })).map((r) => r.privateJwkEnc),
  ...(await db().identityRoot.findMany({ select: { sealed: true } })).map((r) => r.sealed),
  ...(await db().identityProvider.findMany({ select: { clientSecretSealed: true } })).map((r) => r.clientSecretSealed),
];

let before: { page: Awaited<ReturnType<typeof dataPage>>; launchIds: string[]; cookie: string };

beforeAll(async () => {
  process.env.HUB_BASE_URL = "http://hub.test";
  useSecrets(OLD, []);
  s = await createSchool();
  partner = await createPartner("Rotação");
  await linkEdtech(s.networkId, partner.edtechId);
  await grantAccess(s.networkId, partner.applicationId, { allowed: ["nome_usuario", "email_usuario"], anonymized: ["email_usuario"] });
  for (const legacy of [false, true]) {
    const tool = await createTestTool();
    // One tool as an earlier version stored it: v1, sealed with the old secret, no key id.
    if (legacy) await db().tool.update({ where: { id: tool.id }, data: { sharedSecretEnc: sealV1(tool.secret, LTI_SECRET_PURPOSE, OLD) } });
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario"]);
    tools.push({ id: tool.id, consumerKey: tool.consumerKey, secret: tool.secret, placementId: placement.id });
  }
  await getSigningKey();
  // An upstream sign-in provider's client secret, sealed with the old secret (issue #42).
  await db().identityProvider.create({
    data: { institutionId: s.networkId, kind: "google", name: "Google", issuer: "https://accounts.google.com", clientId: "c", clientSecretSealed: encryptSecret("upstream-secret", UPSTREAM_SECRET_PURPOSE), linkRule: "email" },
  });
  await waitForVisibleEvents();
  before = { page: await dataPage(), launchIds: [], cookie: await sealSession({ sub: "someone" }) };
  for (const tool of tools) before.launchIds.push(await launchVerifies(tool));
});

describe("rotating HUB_SECRET with a key ring", () => {
  it("pseudonyms are those the hub gave before identity roots existed (HMAC under the secret of the time)", () => {
    const student = before.page.dados.usuario!.find((e) => e.registro.nome_usuario === s.student.name)!;
    expect(student.registro.email_usuario).toBe(legacyPseudonym(OLD, partner.applicationId, "email_usuario", s.student.email));
  });

  it("with the new secret current and the old one previous: launches, sessions, pairwise ids and pseudonyms all hold", async () => {
    useSecrets(NEW, [OLD]);
    expect(await dataPage()).toEqual(before.page);
    for (const [i, tool] of tools.entries()) expect(await launchVerifies(tool)).toBe(before.launchIds[i]);
    expect(await openSession(before.cookie)).toMatchObject({ sub: "someone" });
    // New values are sealed and signed with the new secret.
    expect(await openSession(await sealSession({ sub: "new" }))).toMatchObject({ sub: "new" });
  });

  it("re-sealing moves every sealed value to the new secret (v1 values included), once", async () => {
    useSecrets(NEW, [OLD]);
    expect((await sealedValues()).some((v) => !v.startsWith(`v2.${secretKeyId(NEW)}.`))).toBe(true);
    const report = await resealSecrets();
    expect(report).toEqual({ toolSecrets: 2, signingKeys: 1, identityRoots: 2, upstreamSecrets: 1 });
    expect((await sealedValues()).every((v) => v.startsWith(`v2.${secretKeyId(NEW)}.`))).toBe(true);
    expect(await resealSecrets()).toEqual({ toolSecrets: 0, signingKeys: 0, identityRoots: 0, upstreamSecrets: 0 });
    const provider = await db().identityProvider.findFirstOrThrow();
    expect(decryptSecret(provider.clientSecretSealed, UPSTREAM_SECRET_PURPOSE)).toBe("upstream-secret");
    const stored = await db().tool.findUniqueOrThrow({ where: { id: tools[1]!.id } });
    expect(decryptSecret(stored.sharedSecretEnc, LTI_SECRET_PURPOSE)).toBe(tools[1]!.secret);
  });

  it("after the old secret is dropped: the same ids, pseudonyms and launches; old sessions end", async () => {
    useSecrets(NEW, []);
    expect(await dataPage()).toEqual(before.page);
    for (const [i, tool] of tools.entries()) expect(await launchVerifies(tool)).toBe(before.launchIds[i]);
    expect(await openSession(before.cookie)).toBeNull();
  });

  it("a value sealed with a secret outside the ring is refused with a clear error", () => {
    useSecrets(NEW, []);
    const foreign = sealV1("x", LTI_SECRET_PURPOSE, OLD);
    expect(() => decryptSecret(foreign, LTI_SECRET_PURPOSE)).toThrow();
    expect(() => decryptSecret(`v2.${secretKeyId(OLD)}.a.b.c`, LTI_SECRET_PURPOSE)).toThrow(/HUB_PREVIOUS_SECRETS/);
  });

  it("HUB_PREVIOUS_SECRETS shorter than 32 characters is a configuration error", () => {
    process.env.HUB_PREVIOUS_SECRETS = "short";
    resetEnvCache();
    expect(() => decryptSecret("v1.a.b.c", LTI_SECRET_PURPOSE)).toThrow(/HUB_PREVIOUS_SECRETS/);
    useSecrets(NEW, []);
  });
});
