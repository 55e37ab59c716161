import { generateSecret, hashSecret } from "@/lib/oauth/secret";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { transaction } from "@/lib/server/db/transaction";
import { AppError } from "@/lib/errors";
import { cardUrl } from "./card-url";
import type { TCardClass } from "./require-card-class";

export interface TIssuedCard {
  profileId: string;
  name: string;
  /** `{base}/cracha/{token}`: shown once, on the printed sheet; only the token's hash is kept. */
  url: string;
}

/** A class's cards are printed at once; a class larger than this is a data error. */
export const MAX_CARDS_PER_PRINT = 200;

/**
 * New cards for every student of the class (one printed sheet). Each student's previous card is
 * revoked in the same transaction, so at most one card per profile works: the partial unique
 * index "SignInCard_active_profile_key" holds that even against two prints at once.
 */
export async function issueClassCards(options: { cls: TCardClass; actorPersonId: string }): Promise<TIssuedCard[]> {
  const { cls } = options;
  return transaction(async (tx) => {
    const students = await tx.classStudent.findMany({
      where: { classId: cls.id, student: { role: "aluno" } },
      select: { studentId: true, student: { select: { person: { select: { name: true } } } } },
      orderBy: [{ student: { person: { name: "asc" } } }, { id: "asc" }],
      take: MAX_CARDS_PER_PRINT + 1,
    });
    if (students.length > MAX_CARDS_PER_PRINT) throw new AppError("bad_request", `A turma tem mais de ${MAX_CARDS_PER_PRINT} alunos; não é possível imprimir os crachás de uma vez.`);
    const profileIds = students.map((s) => s.studentId);
    const now = new Date();
    const revoked = await tx.signInCard.updateMany({ where: { profileId: { in: profileIds }, revokedAt: null }, data: { revokedAt: now } });
    const cards = students.map((s) => ({ profileId: s.studentId, name: s.student.person.name, token: generateSecret(32) }));
    await tx.signInCard.createMany({
      data: cards.map((c) => ({ profileId: c.profileId, tokenHash: hashSecret(c.token), createdByPersonId: options.actorPersonId, createdAt: now })),
    });
    await recordAudit(tx, {
      actorPersonId: options.actorPersonId,
      action: "card.print",
      targetType: "class",
      targetId: cls.id,
      institutionId: cls.institutionId,
      details: { cards: cards.length, revoked: revoked.count },
    });
    return cards.map((c) => ({ profileId: c.profileId, name: c.name, url: cardUrl(c.token) }));
  });
}
