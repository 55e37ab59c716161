// "Meus dados" export (issue #14, point 6; LGPD art. 18, II and V): everything the hub holds about
// the signed-in person, as one JSON document. Her data and nobody else's: a guardian link names
// the relation and the kinship, never the other person; an enrollment names the class, not its
// classmates. Never the password hash.
import { db } from "@/lib/server/db/database";
import { personAttributes } from "@/lib/server/school-data/snapshots";
import { describeSharing } from "./get-my-data";

/** Bounds for the lists that grow with time (reads, sign-ins, history). */
const MAX_ROWS = 1000;

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

const institutionOf = (i: { id: string; name: string; kind: string }) => ({ id: i.id, nome: i.name, tipo: i.kind });

export type TMyDataExport = Awaited<ReturnType<typeof exportMyData>>;

export async function exportMyData(options: { personId: string; now?: Date }) {
  const institution = { select: { id: true, name: true, kind: true } } as const;
  const period = { select: { code: true, name: true, startsOn: true, endsOn: true } } as const;
  const person = await db().person.findUnique({
    where: { id: options.personId },
    select: {
      id: true,
      name: true,
      birthDate: true,
      cpf: true,
      email: true,
      phone: true,
      createdAt: true,
      updatedAt: true,
      edtechMembers: { select: { role: true, createdAt: true, edtech: { select: { name: true } } }, orderBy: { createdAt: "asc" } },
      // The upstream accounts linked to her (issue #42): the provider's subject is her identifier there.
      upstreamAccounts: {
        select: { subject: true, email: true, createdAt: true, lastUsedAt: true, unlinkedAt: true, provider: { select: { name: true, kind: true, issuer: true } } },
        orderBy: { createdAt: "asc" },
      },
      profiles: {
        select: {
          id: true,
          role: true,
          createdAt: true,
          institutionId: true,
          institution,
          classStudents: { select: { createdAt: true, class: { select: { id: true, name: true, grade: true, shift: true, period } } }, orderBy: { createdAt: "asc" } },
          subjectTeachers: {
            select: { createdAt: true, subject: { select: { id: true, name: true } }, class: { select: { id: true, name: true, grade: true, shift: true, period } } },
            orderBy: { createdAt: "asc" },
          },
          guardianOf: { select: { kinship: true, createdAt: true }, orderBy: { createdAt: "asc" } },
          guardedBy: { select: { kinship: true, createdAt: true }, orderBy: { createdAt: "asc" } },
        },
        orderBy: [{ institution: { name: "asc" } }, { role: "asc" }],
      },
    },
  });
  if (!person) return null;
  const profileIds = person.profiles.map((p) => p.id);
  const [sharing, grants, history] = await Promise.all([
    describeSharing(person.profiles, MAX_ROWS),
    db().accessToken.findMany({
      where: { profileId: { in: profileIds } },
      select: { profileId: true, scope: true, createdAt: true, expiresAt: true, revokedAt: true, application: { select: { name: true, edtech: { select: { name: true } } } } },
      orderBy: { createdAt: "desc" },
      take: MAX_ROWS,
    }),
    // Her own records in the Data API's log: when each changed and which attributes. The log keeps
    // no values (partners are sent the current ones, docs/decisions/016).
    db().changeEvent.findMany({
      where: { entity: "usuario", recordId: { in: profileIds } },
      select: { kind: true, occurredAt: true, recordId: true, record: true, changed: true, institution: { select: { name: true } } },
      orderBy: { seq: "desc" },
      take: MAX_ROWS,
    }),
  ]);
  const where = (p: (typeof person.profiles)[number]) => ({ perfilId: p.id, instituicao: institutionOf(p.institution) });
  const classOf = (c: (typeof person.profiles)[number]["classStudents"][number]["class"]) => ({
    id: c.id,
    nome: c.name,
    serie: c.grade,
    turno: c.shift,
    periodo: { codigo: c.period.code, nome: c.period.name, inicio: day(c.period.startsOn), fim: day(c.period.endsOn) },
  });
  return {
    formato: "hub-meus-dados/1",
    geradoEm: (options.now ?? new Date()).toISOString(),
    pessoa: {
      id: person.id,
      ...personAttributes(person),
      criadoEm: person.createdAt.toISOString(),
      atualizadoEm: person.updatedAt.toISOString(),
    },
    perfis: person.profiles.map((p) => ({ id: p.id, papel: p.role, instituicao: institutionOf(p.institution), criadoEm: p.createdAt.toISOString() })),
    matriculas: person.profiles.flatMap((p) => p.classStudents.map((e) => ({ ...where(p), turma: classOf(e.class), desde: e.createdAt.toISOString() }))),
    atribuicoesDocentes: person.profiles.flatMap((p) =>
      p.subjectTeachers.map((t) => ({ ...where(p), turma: classOf(t.class), disciplina: { id: t.subject.id, nome: t.subject.name }, desde: t.createdAt.toISOString() })),
    ),
    // The other side of a guardian link is another person: only the relation is hers.
    vinculosFamiliares: person.profiles.flatMap((p) => [
      ...p.guardianOf.map((g) => ({ ...where(p), relacao: "responsável por um(a) aluno(a)", parentesco: g.kinship, desde: g.createdAt.toISOString() })),
      ...p.guardedBy.map((g) => ({ ...where(p), relacao: "aluno(a) com responsável vinculado", parentesco: g.kinship, desde: g.createdAt.toISOString() })),
    ]),
    edtechs: person.edtechMembers.map((m) => ({ edtech: m.edtech.name, papel: m.role, desde: m.createdAt.toISOString() })),
    contasVinculadas: person.upstreamAccounts.map((a) => ({
      provedor: a.provider.name,
      tipo: a.provider.kind,
      emissor: a.provider.issuer,
      identificador: a.subject,
      email: a.email,
      vinculadaEm: a.createdAt.toISOString(),
      ultimoUso: a.lastUsedAt.toISOString(),
      desvinculadaEm: a.unlinkedAt?.toISOString() ?? null,
    })),
    compartilhamento: sharing.profiles.map((s) => ({
      perfilId: s.profileId,
      papel: s.role,
      instituicao: institutionOf(s.institution),
      parceiros: s.partners.map((partner) => ({
        tipo: partner.kind === "application" ? "aplicativo" : "ferramenta",
        nome: partner.name,
        edtech: partner.edtechName,
        atributos: partner.attributes.map((a) => ({ atributo: a.attribute, tratamento: a.treatment })),
      })),
    })),
    acessos: sharing.reads.map((r) => ({
      em: r.at.toISOString(),
      canal: r.channel,
      parceiro: { tipo: r.partner.kind === "application" ? "aplicativo" : "ferramenta", nome: r.partner.name, edtech: r.partner.edtechName, excluido: r.partner.deleted },
      instituicao: r.institutionName,
      atributos: r.attributes,
    })),
    autorizacoes: grants.map((g) => ({
      perfilId: g.profileId,
      aplicativo: g.application.name,
      edtech: g.application.edtech.name,
      escopo: g.scope,
      emitidaEm: g.createdAt.toISOString(),
      expiraEm: g.expiresAt.toISOString(),
      revogadaEm: g.revokedAt?.toISOString() ?? null,
    })),
    historicoDeCadastro: history.map((e) => {
      const record = (e.record ?? {}) as Record<string, unknown>;
      return { evento: e.kind, em: e.occurredAt.toISOString(), perfilId: e.recordId, instituicao: e.institution.name, perfil: record.perfil ?? null, atributosAlterados: e.changed };
    }),
  };
}
