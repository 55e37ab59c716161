"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { AppError } from "@/lib/errors";
import { deletePlacement } from "@/lib/server/management/delete-placement";
import { runFormAction, type TFormState } from "@/lib/server/management/run-form-action";
import { runSchoolDataCommand } from "@/lib/server/management/run-school-data-command";
import { savePlacement } from "@/lib/server/management/save-placement";
import { setApplicationAccess } from "@/lib/server/management/set-application-access";
import { setEdtechLink } from "@/lib/server/management/set-edtech-link";
import { setToolSharing } from "@/lib/server/management/set-tool-sharing";
import { commandFromForm, parseSharingRuleForm, type TSchoolDataCommand } from "@/lib/validations/management";

const DONE: Record<TSchoolDataCommand["type"], string> = {
  createPeriod: "Período criado.",
  updatePeriod: "Período atualizado.",
  deletePeriod: "Período excluído.",
  createSubject: "Disciplina criada.",
  updateSubject: "Disciplina atualizada.",
  deleteSubject: "Disciplina excluída.",
  createClass: "Turma criada.",
  updateClass: "Turma atualizada.",
  deleteClass: "Turma excluída.",
  createPerson: "Pessoa cadastrada.",
  updatePerson: "Dados atualizados.",
  addProfile: "Perfil adicionado.",
  deleteProfile: "Perfil removido.",
  enrollStudent: "Aluno matriculado.",
  unenrollStudent: "Matrícula removida.",
  assignTeacher: "Professor atribuído.",
  unassignTeacher: "Atribuição removida.",
  linkGuardian: "Responsável vinculado.",
  unlinkGuardian: "Vínculo removido.",
};

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** The sharing-rule card's fields as strings (the services and parseSharingRuleForm validate them). */
const formValues = (form: FormData) => Object.fromEntries([...form.entries()].flatMap(([k, v]) => (typeof v === "string" ? [[k, v.trim()]] : [])));

/** Where to go after a success, when the page the form was on no longer exists (a deleted row). */
function nextPath(form: FormData, institutionId: string): string | null {
  const next = text(form, "next");
  return next.startsWith(`/gestao/${institutionId}`) && !next.includes("//") ? next : null;
}

/** Every school-data form of an institution's pages (the hidden `type` says which command). */
export async function schoolDataAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  let next: string | null = null;
  const state = await runFormAction(form, async (scope) => {
    const command = commandFromForm(form);
    await runSchoolDataCommand({ scope, command });
    revalidatePath(`/gestao/${institutionId}`, "layout");
    next = nextPath(form, institutionId);
    return DONE[command.type];
  });
  if (state.status === "ok" && next) redirect(next);
  return state;
}

export async function edtechLinkAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, async (scope) => {
    const linked = text(form, "linked") === "1";
    await setEdtechLink({ scope, institutionId, edtechId: text(form, "edtechId"), linked });
    revalidatePath(`/gestao/${institutionId}`, "layout");
    return linked ? "Edtech vinculada." : "Vínculo removido.";
  });
}

export async function applicationAccessAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, async (scope) => {
    const applicationId = text(form, "applicationId");
    const rule = parseSharingRuleForm(formValues(form));
    if (rule.remove) {
      await setApplicationAccess({ scope, remove: { institutionId, applicationId } });
    } else {
      await setApplicationAccess({ scope, settings: { institutionId, applicationId, rules: rule.rules, roles: rule.roles } });
    }
    revalidatePath(`/gestao/${institutionId}`, "layout");
    return "Regras de compartilhamento salvas. Valem a partir da próxima leitura da aplicação.";
  });
}

export async function toolSharingAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, async (scope) => {
    const toolId = text(form, "toolId");
    const rule = parseSharingRuleForm(formValues(form));
    if (rule.remove) {
      await setToolSharing({ scope, remove: { institutionId, toolId } });
    } else {
      await setToolSharing({ scope, settings: { institutionId, toolId, rules: rule.rules, roles: rule.roles } });
    }
    revalidatePath(`/gestao/${institutionId}`, "layout");
    return "Regras de compartilhamento salvas. Valem a partir do próximo acesso à ferramenta.";
  });
}

export async function placementAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, async (scope) => {
    const placementId = text(form, "placementId") || undefined;
    if (text(form, "intent") === "delete") {
      if (!placementId) throw new AppError("bad_request", "Disponibilização não informada.");
      await deletePlacement({ scope, placementId });
      revalidatePath(`/gestao/${institutionId}`, "layout");
      return "Disponibilização removida.";
    }
    await savePlacement({
      scope,
      placementId,
      input: {
        institutionId,
        toolId: text(form, "toolId"),
        title: text(form, "title"),
        audience: text(form, "audience") as "escola",
        roles: form.getAll("roles").map(String) as "aluno"[],
        classId: text(form, "classId"),
        customParams: String(form.get("customParams") ?? ""),
      },
    });
    revalidatePath(`/gestao/${institutionId}`, "layout");
    return placementId ? "Disponibilização atualizada." : "Ferramenta disponibilizada.";
  });
}
