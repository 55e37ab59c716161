import type { JWT } from "next-auth/jwt";
import { authenticatePerson } from "./authenticate-person";
import { logSignIn } from "@/lib/server/usage/log-sign-in";
import { listProfiles } from "./list-profiles";

export type TSignInError = "MissingCredentials" | "CredentialsSignin" | "TooManyAttempts";

/**
 * Checks a login and password and returns the session's claims: the person, and the profile
 * already chosen when the person has only one (the picker is for people with several); with the
 * person's number of profiles, for choosePageAfterSignIn.
 */
export async function signInWithPassword(options: { login: string; password: string; ip: string }): Promise<{ ok: true; token: JWT; profileCount: number } | { ok: false; error: TSignInError }> {
  const login = options.login.slice(0, 254);
  const password = options.password.slice(0, 200);
  if (!login.trim() || !password) return { ok: false, error: "MissingCredentials" };
  const result = await authenticatePerson({ login, password, ip: options.ip });
  if (!result.ok) return { ok: false, error: result.reason === "too_many_attempts" ? "TooManyAttempts" : "CredentialsSignin" };
  const profiles = await listProfiles({ personId: result.person.id });
  const [only] = profiles.length === 1 ? profiles : [];
  if (only) await logSignIn({ institutionId: only.institution.id, role: only.role, method: "password" });
  return {
    ok: true,
    profileCount: profiles.length,
    token: { sub: result.person.id, name: result.person.name, email: result.person.email, profileId: only?.id ?? null, method: "password" },
  };
}
