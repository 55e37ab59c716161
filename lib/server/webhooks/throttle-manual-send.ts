import { AppError } from "@/lib/errors";
import { readThrottle, recordFailure } from "@/lib/server/auth/throttle";

/** Sends from the developer area (send again, test event) per person and window: the hub's server is not a request cannon. */
export const MANUAL_SENDS_PER_WINDOW = 30;

/** Counts a manual send against the person's allowance, or refuses it. */
export async function throttleManualSend(personId: string): Promise<void> {
  const key = `webhook-send:${personId}`;
  if ((await readThrottle(key)).lockedUntil) throw new AppError("too_many_requests", "Muitos envios seguidos. Aguarde alguns minutos e tente de novo.");
  await recordFailure(key, MANUAL_SENDS_PER_WINDOW);
}
