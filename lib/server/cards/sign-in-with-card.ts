import type { JWT } from "next-auth/jwt";
import type { Role } from "@/lib/generated/prisma/enums";
import { addressInNetworks } from "@/lib/cards/networks";
import { hashSecret } from "@/lib/oauth/secret";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { readThrottle, recordFailure, THROTTLE } from "@/lib/server/auth/throttle";
import { database } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { log } from "@/lib/server/log.mjs";
import { logSignIn } from "@/lib/server/usage/log-sign-in";
import { CARD_TOKEN_SHAPE } from "./card-url";

/** Why a card did not sign anyone in; each has its own page (app/cracha/recusado). */
export type TCardRefusal = "desconhecido" | "substituido" | "rede" | "perfil" | "tentativas";

export type TCardSignIn = { ok: true; token: JWT } | { ok: false; reason: TCardRefusal };

interface TCardRow {
  id: string;
  profileId: string;
  role: Role;
  revokedAt: Date | null;
  personId: string;
  name: string;
  email: string | null;
  institutionId: string;
  cardNetworks: string[];
  cardStudentsOnly: boolean;
}

const CARD_SQL = `
SELECT c.id, c."profileId", c."revokedAt", p.role::text AS role, pe.id AS "personId", pe.name, pe.email,
       i.id AS "institutionId", i."cardNetworks", i."cardStudentsOnly"
  FROM "SignInCard" c
  JOIN "Profile" p ON p.id = c."profileId"
  JOIN "Person" pe ON pe.id = p."personId"
  JOIN "Institution" i ON i.id = p."institutionId"
 WHERE c."tokenHash" = $1`;

/**
 * Signs in with a card's token: the session's claims for the card's person with its profile
 * already chosen, or why not. Unknown tokens count against the address like failed passwords
 * (throttle.ts); a known card refused (replaced, wrong network, not a student) is logged in the
 * institution's audit log, and so is every sign-in.
 */
export async function signInWithCard(options: { token: string; address: string | null }): Promise<TCardSignIn> {
  const throttleKey = `card:${options.address ?? "unknown"}`;
  if ((await readThrottle(throttleKey)).lockedUntil) return { ok: false, reason: "tentativas" };
  const [card] = CARD_TOKEN_SHAPE.test(options.token) ? await database().sql.query<TCardRow>(CARD_SQL, [hashSecret(options.token)]) : [];
  if (!card) {
    await recordFailure(throttleKey, THROTTLE.maxFailures.ip);
    log().warn({ address: options.address }, "Unknown sign-in card");
    return { ok: false, reason: "desconhecido" };
  }
  const refusal: TCardRefusal | null = card.revokedAt
    ? "substituido"
    : !addressInNetworks(options.address, card.cardNetworks)
      ? "rede"
      : card.cardStudentsOnly && card.role !== "aluno"
        ? "perfil"
        : null;
  await transaction(async (tx) => {
    if (!refusal) await tx.signInCard.update({ where: { id: card.id }, data: { lastUsedAt: new Date() } });
    await recordAudit(tx, {
      actorPersonId: card.personId,
      action: refusal ? "card.refused" : "card.sign_in",
      targetType: "sign_in_card",
      targetId: card.id,
      institutionId: card.institutionId,
      details: { profileId: card.profileId, ...(refusal ? { reason: refusal } : {}), address: options.address },
    });
  });
  if (refusal) return { ok: false, reason: refusal };
  await logSignIn({ institutionId: card.institutionId, role: card.role, method: "card" });
  return { ok: true, token: { sub: card.personId, name: card.name, email: card.email, profileId: card.profileId, method: "card" } };
}
