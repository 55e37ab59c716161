// The session cookie the hub seals and opens itself (with the key derived once per secret) is the
// one next-auth seals and opens: /api/auth/session re-seals it with next-auth's own `encode`.
import { decode, encode } from "next-auth/jwt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { openSession, sealSession } from "./session-cookie";

const SECRET = "session-cookie-test-secret-0123456789abcdef";
const OLD = "session-cookie-test-old-secret-0123456789ab";

describe("session cookie", () => {
  beforeEach(() => {
    process.env.HUB_SECRET = SECRET;
    process.env.HUB_PREVIOUS_SECRETS = OLD;
    resetEnvCache();
  });
  afterEach(() => {
    delete process.env.HUB_PREVIOUS_SECRETS;
    resetEnvCache();
  });

  it("opens what next-auth seals, and next-auth opens what the hub seals", async () => {
    const byNextAuth = await encode({ token: { sub: "p1", profileId: "x" }, secret: SECRET, maxAge: 60 });
    expect(await openSession(byNextAuth)).toMatchObject({ sub: "p1", profileId: "x" });
    const byHub = await sealSession({ sub: "p2", profileId: null });
    expect(await decode({ token: byHub, secret: SECRET })).toMatchObject({ sub: "p2", profileId: null });
  });

  it("opens a cookie sealed with a previous secret, and nothing sealed with an unknown one", async () => {
    expect(await openSession(await encode({ token: { sub: "p3" }, secret: OLD }))).toMatchObject({ sub: "p3" });
    expect(await openSession(await encode({ token: { sub: "p4" }, secret: "another-secret-0123456789abcdefghijkl" }))).toBeNull();
  });

  it("refuses an expired or tampered cookie", async () => {
    const expired = await encode({ token: { sub: "p5" }, secret: SECRET, maxAge: -60 });
    expect(await openSession(expired)).toBeNull();
    const sealed = await sealSession({ sub: "p6" });
    const tampered = sealed.slice(0, -3) + (sealed.endsWith("A") ? "BBB" : "AAA");
    expect(await openSession(tampered)).toBeNull();
    expect(await openSession("not-a-jwe")).toBeNull();
  });

  it("agrees with next-auth on the claims it accepts: exp, nbf and iat as numbers, within 15 s of tolerance", async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<{ token: Record<string, unknown>; maxAge?: number; opens: boolean }> = [
      { token: { sub: "a", nbf: now + 3600 }, opens: false },
      { token: { sub: "b", nbf: now + 10 }, opens: true },
      { token: { sub: "c", nbf: "soon" }, opens: false },
      { token: { sub: "d" }, maxAge: -10, opens: true },
      { token: { sub: "e" }, maxAge: -20, opens: false },
      { token: { sub: "f", nbf: now - 60 }, opens: true },
    ];
    for (const { token, maxAge, opens } of cases) {
      const sealed = await encode({ token, secret: SECRET, ...(maxAge === undefined ? {} : { maxAge }) });
      const byNextAuth = await decode({ token: sealed, secret: SECRET }).catch(() => null);
      const byHub = await openSession(sealed);
      expect(byNextAuth === null ? null : byNextAuth.sub, `next-auth, ${JSON.stringify(token)}`).toBe(opens ? token.sub : null);
      expect(byHub === null ? null : byHub.sub, `hub, ${JSON.stringify(token)}`).toBe(opens ? token.sub : null);
    }
  });
});
