import type { Metadata } from "next";
import Link from "@/components/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { SearchForm } from "@/components/management/filter-form";
import { FormSection } from "@/components/management/page-sections";
import { formatCpf, ROLE_OPTIONS } from "@/components/management/labels";
import { card, sectionTitle } from "@/components/management/styles";
import { formatDateTime } from "@/components/management/labels";
import { ROLE_LABEL } from "@/lib/labels";
import { getPersonDetail } from "@/lib/server/management/get-person-detail";
import { listAncestors } from "@/lib/server/institution-tree/list-ancestors";
import { listUpstreamAccounts } from "@/lib/server/upstream/list-upstream-accounts";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";
import { searchProfiles } from "@/lib/server/management/search-profiles";
import { ZListQuerySchema } from "@/lib/validations/management";
import { schoolDataAction } from "../../actions";
import { notFoundOnMissing } from "../../not-found-on-missing";

export const metadata: Metadata = { title: "Pessoa" };

type Props = { params: Promise<{ institutionId: string; profileId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PersonPage({ params, searchParams }: Props) {
  const { institutionId, profileId } = await params;
  const find = ZListQuerySchema.shape.q.parse((await searchParams).buscar);
  const basePath = `/gestao/${institutionId}/pessoas/${profileId}`;
  const { scope, institution, user } = await requireManagerPage({ returnTo: basePath, institutionId });
  const detail = await notFoundOnMissing(getPersonDetail({ scope, profileId }));
  if (detail.profile.institutionId !== institution.id) notFound();
  const { person, profile } = detail;
  const action = schoolDataAction.bind(null, institution.id);
  const editable = detail.profilesOutsideReach === 0;
  const guardianCandidates = profile.role === "aluno" && find ? await searchProfiles({ scope, institutionId: institution.id, role: "responsavel", q: find }) : [];
  const linkedGuardians = new Set(detail.guardians.map((g) => g.profileId));
  const ancestors = await listAncestors({ institutionId: institution.id });
  const accounts = await listUpstreamAccounts({ personId: person.id, providerInstitutionIds: ancestors.map((a) => a.id) });
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Link href={`/gestao/${institution.id}/pessoas`} className="text-sm text-brand-700 hover:underline">← Pessoas</Link>
          <h2 className="text-xl font-bold">{person.name}</h2>
          <p className="text-sm text-slate-600">
            {ROLE_LABEL[profile.role]} · {profile.institutionName} · perfil <span className="font-mono text-xs">{profile.id}</span>
          </p>
        </div>
        {profile.id !== user.profile?.id && (
          <ConfirmAction
            action={action}
            hidden={{ type: "deleteProfile", profileId: profile.id, next: `/gestao/${institution.id}/pessoas` }}
            label="Remover perfil"
            question={
              detail.otherProfiles.length + detail.profilesOutsideReach === 0
                ? "Remover o perfil e os vínculos? Sem outro perfil, os dados pessoais também são apagados."
                : "Remover este perfil e os vínculos dele?"
            }
            danger
          />
        )}
      </div>

      <FormSection id="personal" title="Dados pessoais" level={3} form={editable ? {
        action, submitLabel: "Salvar dados", columns: 2, hidden: { type: "updatePerson", personId: person.id },
        fields: [
          { name: "name", label: "Nome completo", required: true, defaultValue: person.name, span: 2 },
          { name: "cpf", label: "CPF", defaultValue: person.cpf ? formatCpf(person.cpf) : "" },
          { name: "email", label: "E-mail", type: "email", defaultValue: person.email ?? "" },
          { name: "phone", label: "Celular", type: "tel", defaultValue: person.phone ?? "" },
          { name: "birthDate", label: "Data de nascimento", type: "date", defaultValue: person.birthDate ?? "" },
          {
            name: "password",
            label: person.hasPassword ? "Nova senha" : "Definir senha",
            type: "password",
            autoComplete: "new-password",
            hint: person.hasPassword ? "Deixe em branco para manter a senha atual." : "Sem senha, a pessoa ainda não entra no Hub.",
          },
        ],
      } : undefined}>
        {!editable && (
          <div className="space-y-2 text-sm">
            <p className="rounded-md bg-amber-50 p-3 text-amber-900">
              Esta pessoa também tem perfil em {detail.profilesOutsideReach === 1 ? "uma instituição" : `${detail.profilesOutsideReach} instituições`} fora da sua gestão. Os dados pessoais só podem ser alterados pela gestão que alcança todas elas.
            </p>
            <dl className="grid grid-cols-2 gap-2">
              <dt className="text-slate-600">CPF</dt><dd>{formatCpf(person.cpf)}</dd>
              <dt className="text-slate-600">E-mail</dt><dd>{person.email ?? "—"}</dd>
              <dt className="text-slate-600">Celular</dt><dd>{person.phone ?? "—"}</dd>
            </dl>
          </div>
        )}
      </FormSection>

      {profile.role === "aluno" && (
        <section aria-labelledby="enrollments-title" className={card}>
          <h3 id="enrollments-title" className={sectionTitle}>Matrículas</h3>
          {detail.enrollments.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Sem matrícula. Para matricular, abra a turma em <Link href={`/gestao/${institution.id}/turmas`} className="text-brand-700 underline">Turmas</Link>.</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100">
              {detail.enrollments.map((e) => (
                <li key={e.id} className="flex items-center justify-between gap-3 py-2">
                  <Link href={`/gestao/${institution.id}/turmas/${e.classId}`} className="text-brand-700 hover:underline">{e.className} ({e.periodCode})</Link>
                  <ConfirmAction action={action} hidden={{ type: "unenrollStudent", enrollmentId: e.id }} label="Remover" ariaLabel={`Remover matrícula em ${e.className}`} question="Remover a matrícula?" danger />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {profile.role === "professor" && (
        <section aria-labelledby="teachings-title" className={card}>
          <h3 id="teachings-title" className={sectionTitle}>Turmas e disciplinas</h3>
          {detail.teachings.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Sem atribuições. Atribua na página da turma.</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100">
              {detail.teachings.map((t) => (
                <li key={t.id} className="flex items-center justify-between gap-3 py-2">
                  <Link href={`/gestao/${institution.id}/turmas/${t.classId}`} className="text-brand-700 hover:underline">{t.subjectName} · {t.className} ({t.periodCode})</Link>
                  <ConfirmAction action={action} hidden={{ type: "unassignTeacher", assignmentId: t.id }} label="Remover" ariaLabel={`Remover ${t.subjectName} em ${t.className}`} question="Remover a atribuição?" danger />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {(profile.role === "aluno" || profile.role === "responsavel") && (
        <section aria-labelledby="guardians-title" className={card}>
          <h3 id="guardians-title" className={sectionTitle}>{profile.role === "aluno" ? "Responsáveis" : "Responsável por"}</h3>
          {(profile.role === "aluno" ? detail.guardians : detail.wards).length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">{profile.role === "aluno" ? "Nenhum responsável vinculado." : "Nenhum aluno vinculado. Vincule pela página do aluno."}</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100">
              {(profile.role === "aluno" ? detail.guardians : detail.wards).map((g) => (
                <li key={g.id} className="flex items-center justify-between gap-3 py-2">
                  <span>
                    <Link href={`/gestao/${institution.id}/pessoas/${g.profileId}`} className="text-brand-700 hover:underline">{g.name}</Link>
                    {g.kinship && <span className="ml-2 text-sm text-slate-600">({g.kinship})</span>}
                  </span>
                  <ConfirmAction action={action} hidden={{ type: "unlinkGuardian", guardianshipId: g.id }} label="Desvincular" ariaLabel={`Desvincular ${g.name}`} question="Desfazer o vínculo?" danger />
                </li>
              ))}
            </ul>
          )}
          {profile.role === "aluno" && (
            <div className="mt-4 border-t border-slate-100 pt-4">
              <SearchForm basePath={basePath} name="buscar" value={find} label="Vincular responsável da escola" placeholder="Nome, CPF ou e-mail" submitLabel="Buscar" />
              {find && (
                <ul className="mt-3 space-y-3" aria-label="Responsáveis encontrados">
                  {guardianCandidates.filter((g) => !linkedGuardians.has(g.id)).length === 0 ? (
                    <li className="text-sm text-slate-600">Nenhum responsável encontrado para “{find}”. Cadastre-o em Pessoas com o perfil Responsável.</li>
                  ) : (
                    guardianCandidates
                      .filter((g) => !linkedGuardians.has(g.id))
                      .map((g) => (
                        <li key={g.id} className="rounded-md border border-slate-200 p-3">
                          <p className="mb-2 font-medium">{g.name}</p>
                          <ActionForm
                            action={action}
                            ariaLabel={`Vincular ${g.name}`}
                            submitLabel="Vincular"
                            hidden={{ type: "linkGuardian", guardianId: g.id, studentId: profile.id }}
                            fields={[{ name: "kinship", label: "Parentesco", placeholder: "mãe, pai, avó..." }]}
                          />
                        </li>
                      ))
                  )}
                </ul>
              )}
            </div>
          )}
        </section>
      )}

      <section aria-labelledby="profiles-title" className={card}>
        <h3 id="profiles-title" className={sectionTitle}>Outros perfis</h3>
        {detail.otherProfiles.length === 0 && detail.profilesOutsideReach === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Nenhum outro perfil.</p>
        ) : (
          <ul className="mt-2 list-inside list-disc text-sm">
            {detail.otherProfiles.map((p) => (
              <li key={p.id}>{ROLE_LABEL[p.role]} · {p.institutionName}</li>
            ))}
            {detail.profilesOutsideReach > 0 && <li>{detail.profilesOutsideReach} perfil(is) em instituições fora da sua gestão</li>}
          </ul>
        )}
        <div className="mt-4">
          <ActionForm action={action} ariaLabel="Adicionar perfil" submitLabel="Adicionar perfil" columns={2} hidden={{ type: "addProfile", personId: person.id }}
            fields={[
              { name: "institutionId", label: "Instituição", type: "select", defaultValue: institution.id, options: scope.institutions.map((i) => ({ value: i.id, label: `${"— ".repeat(i.depth)}${i.name}` })) },
              { name: "role", label: "Perfil", type: "select", defaultValue: "responsavel", options: ROLE_OPTIONS },
            ]}
          />
        </div>
      </section>

      <section aria-labelledby="accounts-title" className={card}>
        <h3 id="accounts-title" className={sectionTitle}>Contas vinculadas</h3>
        {accounts.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Nenhuma conta da rede (Google, Microsoft, gov.br) vinculada: a pessoa entra com e-mail ou CPF e senha, ou crachá.</p>
        ) : (
          <ul className="mt-2 list-inside list-disc text-sm">
            {accounts.map((a) => (
              <li key={a.id}>
                {a.providerName}
                {a.email ? ` · ${a.email}` : ""} · vinculada em {formatDateTime(a.createdAt)} · último uso em {formatDateTime(a.lastUsedAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
