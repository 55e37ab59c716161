// The sign-in form's POST keys its per-address throttle on the address server.mjs's request guard
// stamped (lib/server/http/client-address.mjs), never on the X-Forwarded-For the client sends; and
// sends a person the profile picker would only redirect straight on (choosePageAfterSignIn).
import { beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { resetEnvCache } from "@/lib/env";
import { readSession, sessionCookie } from "@/lib/server/auth/session-cookie";
import { recordFailure, THROTTLE } from "@/lib/server/auth/throttle";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/http/client-address.mjs";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { setupTestDatabase } from "@/test/database";
import { POST } from "./route";

setupTestDatabase();
const ORIGIN = "http://hub.test";
const people = { student: { personId: "", profileId: "" }, teacher: { personId: "" } };

beforeAll(async () => {
  process.env.HUB_SECRET = "entrar-route-test-secret-0123456789abcdef";
  resetEnvCache();
  await createPerson({ name: "Elisa Prado", email: "elisa.prado@escola.test", password: "senha-forte-3" });
  const [schoolA, schoolB] = await Promise.all([createInstitution({ name: "Escola Entrar A", kind: "school" }), createInstitution({ name: "Escola Entrar B", kind: "school" })]);
  const student = await createPerson({ name: "Caio Lima", email: "caio.lima@escola.test", password: "senha-forte-4" });
  const profile = await createProfile({ personId: student.id, institutionId: schoolA.id, role: "aluno" });
  people.student = { personId: student.id, profileId: profile.id };
  const teacher = await createPerson({ name: "Rita Gomes", email: "rita.gomes@escola.test", password: "senha-forte-5" });
  await createProfile({ personId: teacher.id, institutionId: schoolA.id, role: "professor" });
  await createProfile({ personId: teacher.id, institutionId: schoolB.id, role: "professor" });
  people.teacher = { personId: teacher.id };
});

function signIn(login: string, password: string, headers: Record<string, string>, callbackUrl?: string): Promise<Response> {
  return POST(
    new NextRequest(`${ORIGIN}/entrar`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ login, password, ...(callbackUrl === undefined ? {} : { callbackUrl }) }).toString(),
    }),
  );
}

/** The session the answer sets, read back as the next request would read it. */
async function sessionOf(response: Response) {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookie().name}=`));
  expect(cookie, "the answer sets the session cookie").toBeDefined();
  return readSession(new Request(ORIGIN, { headers: { cookie: cookie!.split(";")[0]! } }));
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

describe("POST /entrar: where the person goes next", () => {
  const from = (n: number) => ({ [CLIENT_ADDRESS_HEADER]: `203.0.113.${n}` });

  it("sends a person with one profile straight to the callback URL, the profile chosen in the session: no /perfil hop", async () => {
    for (const [callbackUrl, location] of [[undefined, "/"], ["/", "/"], ["/ferramentas/abc?x=1", "/ferramentas/abc?x=1"], ["https://evil.example/", "/"], ["//evil.example/", "/"]] as const) {
      const answer = await signIn("caio.lima@escola.test", "senha-forte-4", from(10), callbackUrl);
      expect(answer.status, String(callbackUrl)).toBe(303);
      expect(answer.headers.get("location"), String(callbackUrl)).toBe(location);
      expect(await sessionOf(answer)).toMatchObject({ sub: people.student.personId, profileId: people.student.profileId, method: "password" });
    }
  });

  it("sends a person with several profiles to the picker, carrying the callback URL, no profile chosen yet", async () => {
    const answer = await signIn("rita.gomes@escola.test", "senha-forte-5", from(11), "/ferramentas/abc");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/perfil?callbackUrl=%2Fferramentas%2Fabc");
    expect(await sessionOf(answer)).toMatchObject({ sub: people.teacher.personId, profileId: null });
    expect((await signIn("rita.gomes@escola.test", "senha-forte-5", from(11))).headers.get("location")).toBe("/perfil?callbackUrl=%2F");
  });

  it("sends a person with no profile on to a callback URL other than the home, and to the picker's explanation for the home", async () => {
    expect((await signIn("elisa.prado@escola.test", "senha-forte-3", from(12), "/desenvolvedor")).headers.get("location")).toBe("/desenvolvedor");
    expect((await signIn("elisa.prado@escola.test", "senha-forte-3", from(12), "/")).headers.get("location")).toBe("/perfil?callbackUrl=%2F");
  });

  it("sends the OAuth flow straight on, whatever the person's profiles: its own screen picks the profile", async () => {
    const callbackUrl = "/oauth/continuar?client_id=abc&state=xyz";
    expect((await signIn("rita.gomes@escola.test", "senha-forte-5", from(13), callbackUrl)).headers.get("location")).toBe(callbackUrl);
  });
});
