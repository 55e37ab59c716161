// The sign-in form's POST keys its per-address throttle on the address server.mjs's request guard
// stamped (lib/server/http/client-address.mjs), never on the X-Forwarded-For the client sends.
import { beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { resetEnvCache } from "@/lib/env";
import { recordFailure, THROTTLE } from "@/lib/server/auth/throttle";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/http/client-address.mjs";
import { createPerson } from "@/lib/server/school-data/create-person";
import { setupTestDatabase } from "@/test/database";
import { POST } from "./route";

setupTestDatabase();
const ORIGIN = "http://hub.test";

beforeAll(async () => {
  process.env.HUB_SECRET = "entrar-route-test-secret-0123456789abcdef";
  resetEnvCache();
  await createPerson({ name: "Elisa Prado", email: "elisa.prado@escola.test", password: "senha-forte-3" });
});

function signIn(login: string, password: string, headers: Record<string, string>): Promise<Response> {
  return POST(
    new NextRequest(`${ORIGIN}/entrar`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ login, password }).toString(),
    }),
  );
}

describe("POST /entrar: the per-address throttle", () => {
  it(`locks the stamped address at its ${THROTTLE.maxFailures.ip}th failure, whatever X-Forwarded-For says; another address still signs in`, { timeout: 30_000 }, async () => {
    const attacker = { [CLIENT_ADDRESS_HEADER]: "203.0.113.77" };
    // All failures but the last, counted directly: through the form each would wait up to 2 s.
    for (let i = 1; i < THROTTLE.maxFailures.ip; i++) await recordFailure("signin:ip:203.0.113.77", THROTTLE.maxFailures.ip);
    // The last one through the form, claiming another address: it still counts against the stamped one.
    const failed = await signIn("ninguem@escola.test", "errada", { ...attacker, "x-forwarded-for": "198.51.100.1" });
    expect(failed.headers.get("location")).toMatch(/error=CredentialsSignin/);
    const locked = await signIn("elisa.prado@escola.test", "senha-forte-3", { ...attacker, "x-forwarded-for": "198.51.100.250" });
    expect(locked.status).toBe(303);
    expect(locked.headers.get("location")).toMatch(/error=TooManyAttempts/);

    const other = await signIn("elisa.prado@escola.test", "senha-forte-3", { [CLIENT_ADDRESS_HEADER]: "203.0.113.78" });
    expect(other.status).toBe(303);
    expect(other.headers.get("location")).toMatch(/^\/perfil/);
  });
});
