// Key rotation: a key is created on first use, replaced after KEY_ROTATION_SECONDS, and a retired
// key stays in the JWKS (so its tokens keep verifying) until they have all expired.
import { beforeAll, describe, expect, it } from "vitest";
import { db, setDatabase } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { generateSigningKey } from "@/lib/oauth/jwt";
import { encryptSecret } from "@/lib/server/crypto/secret-box";
import { openTestDatabase, setupTestDatabase } from "@/test/database";
import { getUserInfo } from "./get-user-info";
import { issueTokens } from "./issue-tokens";
import { KEY_ROTATION_SECONDS, RETIRED_KEY_PUBLISH_SECONDS } from "./lifetimes";
import { getSigningKey, listPublicJwks } from "./signing-keys";
import { createOAuthWorld, TEST_ISSUER, type TOAuthWorld } from "@/test/fixtures/oauth";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";

const t = setupTestDatabase();
let w: TOAuthWorld;

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "signing-keys-test-secret-0123456789abcdef";
  resetEnvCache();
  w = await createOAuthWorld();
});

const t0 = new Date("2026-03-01T12:00:00Z");
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe("signing keys", () => {
  it("the first use creates one key, stored with its private half encrypted; later uses reuse it", async () => {
    expect(await db().signingKey.count()).toBe(0);
    const key = await getSigningKey({ now: t0 });
    expect((await getSigningKey({ now: at(60) })).kid).toBe(key.kid);
    const rows = await db().signingKey.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.privateJwkEnc).toMatch(/^v2\./);
    expect(rows[0]!.privateJwkEnc).not.toContain(String(key.privateJwk.d));
    expect(JSON.stringify(rows[0]!.publicJwk)).not.toContain('"d"');
  });

  it("after the rotation period a new key signs; the retired one stays published until its tokens expired", async () => {
    const old = await getSigningKey({ now: t0 });
    const beforeRotation = at(KEY_ROTATION_SECONDS - 10);
    const token = await issueTokens({ application: w.app, profileId: w.teacherA, scope: ["user.info"], accessToken: true, idToken: false, now: beforeRotation });

    const rotatedAt = at(KEY_ROTATION_SECONDS);
    const fresh = await getSigningKey({ now: rotatedAt });
    expect(fresh.kid).not.toBe(old.kid);
    expect((await db().signingKey.findUnique({ where: { kid: old.kid } }))!.retiredAt).toEqual(rotatedAt);

    const kids = async (now: Date) => (await listPublicJwks({ now })).map((k) => k.kid);
    expect(await kids(at(KEY_ROTATION_SECONDS + 60))).toEqual([fresh.kid, old.kid]);
    // A token signed by the old key just before the rotation still verifies after it.
    const info = await getUserInfo({ authorization: `Bearer ${token.accessToken}`, relationshipId: (await partnerIdOf(applicationPartner(w.app.id), w.teacherA)), now: at(KEY_ROTATION_SECONDS + 60) });
    expect(info).toMatchObject({ user_id: (await partnerIdOf(applicationPartner(w.app.id), w.teacherA)) });
    expect(await kids(at(KEY_ROTATION_SECONDS + RETIRED_KEY_PUBLISH_SECONDS + 1))).toEqual([fresh.kid]);
  });

  it("a key that cannot be decrypted (HUB_SECRET changed) is replaced instead of failing every sign-in", async () => {
    const now = at(3 * KEY_ROTATION_SECONDS);
    const stranger = await generateSigningKey();
    await db().signingKey.updateMany({ where: { retiredAt: null }, data: { retiredAt: now } });
    await db().signingKey.create({
      data: { kid: stranger.kid, alg: "RS256", publicJwk: stranger.publicJwk as object, privateJwkEnc: encryptSecret("{}", "another-purpose"), createdAt: now },
    });
    const key = await getSigningKey({ now });
    expect(key.kid).not.toBe(stranger.kid);
    expect((await db().signingKey.findUnique({ where: { kid: stranger.kid } }))!.retiredAt).toEqual(now);
  });

  it("are remembered per database: another database in the same process gets its own key and list", async () => {
    const first = await getSigningKey({ now: t0 });
    const other = await openTestDatabase();
    setDatabase(other.db);
    try {
      const key = await getSigningKey({ now: t0 });
      expect(key.kid).not.toBe(first.kid);
      expect((await other.db.prisma.signingKey.findMany()).map((row) => row.kid)).toEqual([key.kid]);
      expect((await listPublicJwks({ now: t0, fresh: false })).map((jwk) => jwk.kid)).toEqual([key.kid]);
    } finally {
      setDatabase(t.db);
      await other.close();
    }
    expect((await getSigningKey({ now: t0 })).kid).toBe(first.kid);
  });
});
