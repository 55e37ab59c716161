import type { Metadata } from "next";
import Link from "@/components/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { FormSection } from "@/components/management/page-sections";
import { DataTable } from "@/components/data-table";
import { FilterForm, SearchForm } from "@/components/management/filter-form";
import { formatCpf, SHIFT_OPTIONS } from "@/components/management/labels";
import { Pagination } from "@/components/management/pagination";
import { card, primaryButton, sectionTitle } from "@/components/management/styles";
import { getClassDetail } from "@/lib/server/management/get-class-detail";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";
import { searchProfiles } from "@/lib/server/management/search-profiles";
import { ZListQuerySchema } from "@/lib/validations/management";
import { revokeCardAction, schoolDataAction } from "../../actions";
import { notFoundOnMissing } from "../../not-found-on-missing";

export const metadata: Metadata = { title: "Turma" };

type Props = { params: Promise<{ institutionId: string; classId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ClassPage({ params, searchParams }: Props) {
  const { institutionId, classId } = await params;
  const raw = await searchParams;
  const query = ZListQuerySchema.parse(raw);
  const find = ZListQuerySchema.shape.q.parse(raw.buscar);
  const basePath = `/gestao/${institutionId}/turmas/${classId}`;
  const { scope, institution } = await requireManagerPage({ returnTo: basePath, institutionId });
  const detail = await notFoundOnMissing(getClassDetail({ scope, classId, q: query.q, page: query.page }));
  // The URL's institution must be the class's own: /gestao/<school 1>/turmas/<class of school 2> is a 404 too.
  if (detail.class.institutionId !== institution.id) notFound();
  const candidates = find ? await searchProfiles({ scope, institutionId: institution.id, role: "aluno", q: find, notInClassId: detail.class.id }) : [];
  const action = schoolDataAction.bind(null, institution.id);
  const c = detail.class;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Link href={`/gestao/${institution.id}/turmas`} className="text-sm text-brand-700 hover:underline">← Turmas</Link>
          <h2 className="text-xl font-bold">Turma {c.name}</h2>
          <p className="text-sm text-slate-600">Período {c.periodCode} · {c.periodName}</p>
        </div>
        <ConfirmAction
          action={action}
          hidden={{ type: "deleteClass", classId: c.id, next: `/gestao/${institution.id}/turmas` }}
          label="Excluir turma"
          question="Excluir a turma com todas as matrículas e atribuições?"
          danger
        />
      </div>

      <section aria-labelledby="students-title" className="space-y-3">
        <h3 id="students-title" className={sectionTitle}>Alunos matriculados</h3>
        <FilterForm basePath={basePath} q={query.q} searchLabel="Buscar aluno na turma" placeholder="Nome" />
        <DataTable
          caption="Alunos matriculados"
          headers={["Nome", "CPF", "E-mail", "Crachá", ""]}
          empty={query.q ? <p>Nenhum aluno da turma com esse nome.</p> : <p>Nenhum aluno matriculado. Use a busca abaixo para matricular.</p>}
          rows={detail.students.items.map((s) => ({
            key: s.enrollmentId,
            cells: [
              <Link key="n" href={`/gestao/${institution.id}/pessoas/${s.profileId}`} className="text-brand-700 hover:underline">{s.name}</Link>,
              formatCpf(s.cpf),
              s.email ?? "—",
              s.hasCard ? (
                <ConfirmAction
                  key="c"
                  action={revokeCardAction.bind(null, institution.id)}
                  hidden={{ profileId: s.profileId }}
                  label="Revogar crachá"
                  ariaLabel={`Revogar o crachá de ${s.name}`}
                  question={`Revogar o crachá de ${s.name}? Ele deixa de entrar com o crachá impresso.`}
                  danger
                />
              ) : (
                "—"
              ),
              <ConfirmAction
                key="r"
                action={action}
                hidden={{ type: "unenrollStudent", enrollmentId: s.enrollmentId }}
                label="Remover"
                ariaLabel={`Remover matrícula de ${s.name}`}
                question={`Remover ${s.name} da turma?`}
                danger
              />,
            ],
          }))}
        />
        <Pagination basePath={basePath} params={{ q: query.q }} page={detail.students.page} pageCount={detail.students.pageCount} total={detail.students.total} noun={["aluno", "alunos"]} />
      </section>

      <section aria-labelledby="cards-title" className={card}>
        <h3 id="cards-title" className={sectionTitle}>Crachás de acesso</h3>
        <p className="mt-1 text-sm text-slate-600">
          Um crachá por aluno, com nome, turma e um código QR: lido pela câmera do tablet ou do computador, faz o aluno entrar sem digitar e-mail nem senha.
          Imprimir de novo gera crachás novos e invalida os anteriores. As redes em que o crachá vale ficam na <Link href={`/gestao/${institution.id}`} className="text-brand-700 underline">página da instituição</Link>.
        </p>
        <form method="post" action={`${basePath}/crachas`} className="mt-3">
          <button type="submit" className={primaryButton}>Imprimir crachás da turma</button>
        </form>
      </section>

      <section aria-labelledby="enroll-title" className={card}>
        <h3 id="enroll-title" className={sectionTitle}>Matricular aluno</h3>
        <SearchForm basePath={basePath} name="buscar" value={find} label="Buscar aluno da escola" placeholder="Nome, CPF ou e-mail" submitLabel="Buscar" className="mt-3" />
        {find && (
          <ul className="mt-4 divide-y divide-slate-100" aria-label="Alunos encontrados">
            {candidates.length === 0 ? (
              <li className="py-2 text-sm text-slate-600">
                Nenhum aluno fora desta turma encontrado para “{find}”. Cadastre-o em <Link href={`/gestao/${institution.id}/pessoas`} className="text-brand-700 underline">Pessoas</Link>.
              </li>
            ) : (
              candidates.map((s) => (
                <li key={s.id} className="flex items-center justify-between gap-3 py-2">
                  <span>
                    <span className="font-medium">{s.name}</span>
                    <span className="ml-2 text-sm text-slate-600">{s.cpf ? formatCpf(s.cpf) : (s.email ?? "")}</span>
                  </span>
                  <ConfirmAction action={action} hidden={{ type: "enrollStudent", classId: c.id, studentId: s.id }} label="Matricular" ariaLabel={`Matricular ${s.name}`} />
                </li>
              ))
            )}
          </ul>
        )}
      </section>

      <section aria-labelledby="teachers-title" className="space-y-3">
        <h3 id="teachers-title" className={sectionTitle}>Professores por disciplina</h3>
        <DataTable
          caption="Professores por disciplina"
          headers={["Disciplina", "Professor(a)", ""]}
          empty={<p>Nenhum professor atribuído a esta turma.</p>}
          rows={detail.teachings.map((t) => ({
            key: t.id,
            cells: [
              t.subjectName,
              <Link key="p" href={`/gestao/${institution.id}/pessoas/${t.teacherId}`} className="text-brand-700 hover:underline">{t.teacherName}</Link>,
              <ConfirmAction key="r" action={action} hidden={{ type: "unassignTeacher", assignmentId: t.id }} label="Remover" ariaLabel={`Remover ${t.teacherName} de ${t.subjectName}`} question="Remover a atribuição?" danger />,
            ],
          }))}
        />
        {detail.subjects.length > 0 && detail.teachers.length > 0 ? (
          <div className={card}>
            <ActionForm action={action} ariaLabel="Atribuir professor" submitLabel="Atribuir professor" columns={2} hidden={{ type: "assignTeacher", classId: c.id }}
              fields={[
                { name: "subjectId", label: "Disciplina", type: "select", defaultValue: detail.subjects[0]!.id, options: detail.subjects.map((s) => ({ value: s.id, label: s.name })) },
                { name: "teacherId", label: "Professor(a)", type: "select", defaultValue: detail.teachers[0]!.id, options: detail.teachers.map((t) => ({ value: t.id, label: t.name })) },
              ]}
            />
          </div>
        ) : (
          <p className="text-sm text-slate-600">Para atribuir, a escola precisa de disciplinas e de pessoas com perfil de professor.</p>
        )}
      </section>

      <FormSection id="edit-class" title="Dados da turma" level={3} form={{
        action, ariaLabel: "Editar turma", submitLabel: "Salvar turma", columns: 2, hidden: { type: "updateClass", classId: c.id },
        fields: [
          { name: "name", label: "Nome", required: true, defaultValue: c.name },
          { name: "grade", label: "Série", defaultValue: c.grade ?? "" },
          { name: "shift", label: "Turno", type: "select", defaultValue: c.shift ?? "", options: SHIFT_OPTIONS },
        ],
      }} />
    </div>
  );
}
