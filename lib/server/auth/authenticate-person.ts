import { createHmac } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { db } from "@/lib/server/db/database";
import { hubSecret } from "@/lib/server/crypto/hub-secret";
import { hashPassword, verifyPassword } from "@/lib/server/crypto/password";
import { clearThrottle, readThrottle, recordFailure, THROTTLE } from "./throttle";

export type AuthenticationResult =
  | { ok: true; person: { id: string; name: string; email: string | null } }
  | { ok: false; reason: "invalid_credentials" | "too_many_attempts" };

// Verifying against a fixed hash when the login is unknown keeps the answer time the same, so
// timing does not reveal which logins exist.
let decoyHash: Promise<string> | undefined;

function normalizeLogin(login: string): { email?: string; cpf?: string } {
  const trimmed = login.trim();
  if (trimmed.includes("@")) return { email: trimmed.toLowerCase() };
  const digits = trimmed.replace(/[.\-\s]/g, "");
  return /^\d{11}$/.test(digits) ? { cpf: digits } : { email: trimmed.toLowerCase() };
}

/**
 * The throttle counts failures per login without storing the login (an e-mail or CPF: personal
 * data that would outlive the person's deletion): a keyed hash of it, which a CPF's small space
 * cannot be searched for without the hub secret.
 */
function loginKey(login: string): string {
  return createHmac("sha256", hubSecret()).update(`hub/throttle/login/v1\0${login}`, "utf8").digest("base64url");
}

/**
 * Checks a login (e-mail or CPF) and password. Failures are counted per login and per client
 * address: each failure slows the next answer, and too many lock the key for a while.
 */
export async function authenticatePerson({ login, password, ip }: { login: string; password: string; ip: string }): Promise<AuthenticationResult> {
  const where = normalizeLogin(login);
  const keys = { login: `signin:login:${loginKey(where.email ?? where.cpf ?? "")}`, ip: `signin:ip:${ip}` };
  const [byLogin, byIp] = await Promise.all([readThrottle(keys.login), readThrottle(keys.ip)]);
  if (byLogin.lockedUntil || byIp.lockedUntil) return { ok: false, reason: "too_many_attempts" };
  const failures = Math.max(byLogin.failures, byIp.failures);
  if (failures > 0) await sleep(Math.min(failures * THROTTLE.delayPerFailureMs, THROTTLE.maxDelayMs));

  const person = await db().person.findFirst({ where, select: { id: true, name: true, email: true, passwordHash: true } });
  decoyHash ??= hashPassword("decoy-password-for-unknown-logins");
  const valid = await verifyPassword(password, person?.passwordHash ?? (await decoyHash));
  if (!person?.passwordHash || !valid) {
    await recordFailure(keys.login, THROTTLE.maxFailures.login);
    await recordFailure(keys.ip, THROTTLE.maxFailures.ip);
    return { ok: false, reason: "invalid_credentials" };
  }
  await clearThrottle(keys.login);
  return { ok: true, person: { id: person.id, name: person.name, email: person.email } };
}
