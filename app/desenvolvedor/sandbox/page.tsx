import type { Metadata } from "next";
import { DataTable } from "@/components/data-table";
import { CreateSandboxForm, GenerateChangesForm } from "@/components/developer/sandbox-forms";
import { requireDeveloper } from "@/lib/server/developer/require-developer";
import { getSandboxes } from "@/lib/server/sandbox/get-sandboxes";
import { createSandboxAction, generateSandboxChangesAction } from "./actions";

export const metadata: Metadata = { title: "Sandbox" };

const ROLES: Record<string, string> = { aluno: "Aluno", professor: "Professor", responsavel: "Responsável" };

export default async function SandboxPage() {
  const developer = await requireDeveloper("/desenvolvedor/sandbox");
  const views = await getSandboxes({ personId: developer.personId });
  return (
    <section className="space-y-10">
      <header>
        <h1 className="text-2xl font-bold">Rede sandbox</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Uma rede de teste só da sua edtech, com escolas, turmas e pessoas fictícias, para usar a API de dados, os webhooks, o login OAuth e os
          lançamentos antes de qualquer escola real. Todas as suas aplicações ficam liberadas nela (com a idade anonimizada) e todas as suas
          ferramentas ativas ficam disponíveis para os usuários sandbox.
        </p>
      </header>
      {views.map((view) => (
        <article key={view.edtechId} aria-labelledby={`sandbox-${view.edtechId}`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id={`sandbox-${view.edtechId}`} className="text-lg font-semibold">{view.sandbox ? view.sandbox.name : view.edtechName}</h2>
          {!view.sandbox ? (
            <>
              <p className="text-sm text-slate-600">Esta edtech ainda não tem rede sandbox. A criação leva alguns segundos; as chaves da API criadas para ela aparecem uma única vez.</p>
              <CreateSandboxForm action={createSandboxAction} edtechId={view.edtechId} />
            </>
          ) : (
            <>
              <dl className="grid gap-2 text-sm sm:grid-cols-[12rem_1fr]">
                <dt className="font-medium">org_id da rede</dt>
                <dd className="break-all font-mono" data-sandbox-org-id={view.sandbox.institutionId}>{view.sandbox.institutionId}</dd>
                {view.sandbox.schools.map((s) => (
                  <div key={s.id} className="contents">
                    <dt className="font-medium">{s.name}</dt>
                    <dd className="break-all font-mono">{s.id}</dd>
                  </div>
                ))}
                <dt className="font-medium">Senha dos usuários sandbox</dt>
                <dd className="font-mono" data-sandbox-password>{view.sandbox.password}</dd>
              </dl>
              <DataTable
                caption="Usuários sandbox para entrar no Hub"
                headers={["Perfil", "Nome", "Login (e-mail)"]}
                empty="Nenhum usuário sandbox."
                rows={view.sandbox.logins.map((l) => ({ key: l.email, cells: [ROLES[l.role] ?? l.role, l.name, <span key="e" className="font-mono">{l.email}</span>] }))}
              />
              <div>
                <h3 className="text-base font-semibold">Gerar alterações</h3>
                <p className="mb-2 text-sm text-slate-600">Inclui, altera e exclui alunos e turmas de uma vez: os eventos chegam à API de dados e aos seus webhooks como os de uma escola.</p>
                <GenerateChangesForm action={generateSandboxChangesAction} edtechId={view.edtechId} />
              </div>
            </>
          )}
        </article>
      ))}
    </section>
  );
}
