import { AppError } from "@/lib/errors";
import { getCurrentUser } from "@/lib/server/auth/current-user";

/**
 * The signed-in person a server action acts for, re-read from the session on every call: an
 * action is a public POST endpoint, so what the page showed proves nothing. Membership is checked
 * by each service against the resource itself.
 */
export async function getActingPersonId(): Promise<string | null> {
  return (await getCurrentUser())?.personId ?? null;
}

/** The acting person of a developer-area server action; signed out is an AppError the form shows. */
export async function requireActingPersonId(): Promise<string> {
  const personId = await getActingPersonId();
  if (!personId) throw new AppError("unauthorized", "Sua sessão expirou. Entre novamente para continuar.");
  return personId;
}
