import type { JWT } from "next-auth/jwt";
import type { Role } from "@/lib/generated/prisma/enums";
import { addressInNetworks } from "@/lib/cards/networks";
import { hashSecret } from "@/lib/oauth/secret";
import { recordAuditWith } from "@/lib/server/audit/record-audit";
import { LOCKED_SQL, recordFailure, THROTTLE } from "@/lib/server/auth/throttle";
import { database } from "@/lib/server/db/database";
import { log } from "@/lib/server/log.mjs";
import { logSignIn } from "@/lib/server/usage/log-sign-in";
import { CARD_TOKEN_SHAPE } from "./card-url";

/** Why a card did not sign anyone in; each has its own page (app/cracha/recusado). */
export type TCardRefusal = "desconhecido" | "substituido" | "rede" | "perfil" | "tentativas";

export type TCardSignIn = { ok: true; token: JWT } | { ok: false; reason: TCardRefusal };

/** The address's throttle, and the card (all null when no card has the token). */
interface TCardRow {
  locked: boolean;
  id: string | null;
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

// Whether the address ($2, its throttle key) is locked out, and the card whose token hashes to $1
// with its profile, person and institution: one prepared statement, one row.
const CARD_SQL = `
SELECT ${LOCKED_SQL("r")} AS locked,
       c.id, c."profileId", c."revokedAt", p.role::text AS role, pe.id AS "personId", pe.name, pe.email,
       i.id AS "institutionId", i."cardNetworks", i."cardStudentsOnly"
  FROM (SELECT 1) AS one
  LEFT JOIN "RateLimit" r ON r.key = $2
  LEFT JOIN ("SignInCard" c
             JOIN "Profile" p ON p.id = c."profileId"
             JOIN "Person" pe ON pe.id = p."personId"
             JOIN "Institution" i ON i.id = p."institutionId") ON c."tokenHash" = $1`;

// The card's last use ($8: its id, or null for a refusal), beside the audit row.
const MARK_USED = `WITH used AS (UPDATE "SignInCard" SET "lastUsedAt" = now() WHERE id = $8::uuid)`;

/**
 * Signs in with a card's token: the session's claims for the card's person with its profile
 * already chosen, or why not. Unknown tokens count against the address like failed passwords
 * (throttle.ts); a known card refused (replaced, wrong network, not a student) is logged in the
 * institution's audit log, and so is every sign-in.
 */
export async function signInWithCard(options: { token: string; address: string | null }): Promise<TCardSignIn> {
  const throttleKey = `card:${options.address ?? "unknown"}`;
  const tokenHash = CARD_TOKEN_SHAPE.test(options.token) ? hashSecret(options.token) : null;
  const [found] = await database().sql.query<TCardRow>(CARD_SQL, [tokenHash, throttleKey], { prepared: true });
  if (found?.locked) return { ok: false, reason: "tentativas" };
  if (!found?.id) {
    await recordFailure(throttleKey, THROTTLE.maxFailures.ip);
    log().warn({ address: options.address }, "Unknown sign-in card");
    return { ok: false, reason: "desconhecido" };
  }
  const refusal: TCardRefusal | null = found.revokedAt
    ? "substituido"
    : !addressInNetworks(options.address, found.cardNetworks)
      ? "rede"
      : found.cardStudentsOnly && found.role !== "aluno"
        ? "perfil"
        : null;
  const audit = {
    actorPersonId: found.personId,
    action: refusal ? "card.refused" : "card.sign_in",
    targetType: "sign_in_card",
    targetId: found.id,
    institutionId: found.institutionId,
    details: { profileId: found.profileId, ...(refusal ? { reason: refusal } : {}), address: options.address },
  } as const;
  await recordAuditWith(audit, { with: MARK_USED, values: [refusal ? null : found.id] });
  if (refusal) return { ok: false, reason: refusal };
  await logSignIn({ institutionId: found.institutionId, role: found.role, method: "card" });
  return { ok: true, token: { sub: found.personId, name: found.name, email: found.email, profileId: found.profileId, method: "card" } };
}
