"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { AppError } from "@/lib/errors";
import { done, runFormAction, type TFormDone } from "@/lib/server/forms/run-form-action";
import { currentManagerScope } from "@/lib/server/management/current-manager-scope";
import { deletePlacement } from "@/lib/server/management/delete-placement";
import type { TManagerScope } from "@/lib/server/management/resolve-manager-scope";
import { COMMAND_DONE, runSchoolDataCommand } from "@/lib/server/management/run-school-data-command";
import { savePlacement } from "@/lib/server/management/save-placement";
import { setApplicationAccess } from "@/lib/server/management/set-application-access";
import { setEdtechLink } from "@/lib/server/management/set-edtech-link";
import { setToolSharing } from "@/lib/server/management/set-tool-sharing";
import { revokeCard } from "@/lib/server/cards/revoke-card";
import { saveCardSettings } from "@/lib/server/cards/save-card-settings";
import { saveIdentityProvider } from "@/lib/server/upstream/save-identity-provider";
import { setIdentityProviderState } from "@/lib/server/upstream/set-identity-provider-state";
import { formObject, parseForm, type TFormState } from "@/lib/validations/form";
import { ZIdentityProviderFormSchema, ZIdentityProviderStateFormSchema } from "@/lib/validations/upstream";
import { parseSharingRuleForm, ZCardSettingsFormSchema, ZRevokeCardFormSchema, ZEdtechLinkFormSchema, ZFormTargetSchema, ZPlacementFormSchema, ZSchoolDataFormSchema } from "@/lib/validations/management";

/** An action on one institution's pages: the manager's reach, then every page of the institution re-rendered. */
function institutionAction(institutionId: string, form: FormData, action: (scope: TManagerScope) => Promise<TFormDone<undefined>>): Promise<TFormState> {
  return runFormAction(form, currentManagerScope, async (scope) => {
    const answer = await action(scope);
    revalidatePath(`/gestao/${institutionId}`, "layout");
    return answer;
  });
}

/** Every school-data form of an institution's pages (the hidden `type` says which command). */
export async function schoolDataAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  const state = await institutionAction(institutionId, form, async (scope) => {
    const command = parseForm(ZSchoolDataFormSchema, form);
    await runSchoolDataCommand({ scope, command });
    return done(COMMAND_DONE[command.type]);
  });
  // After a success, the page to go to when the form's own page no longer exists (a deleted row).
  const { next } = parseForm(ZFormTargetSchema, form);
  if (state.status === "success" && next.startsWith(`/gestao/${institutionId}`) && !next.includes("//")) redirect(next);
  return state;
}

export async function edtechLinkAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return institutionAction(institutionId, form, async (scope) => {
    const { edtechId, linked } = parseForm(ZEdtechLinkFormSchema, form);
    await setEdtechLink({ scope, institutionId, edtechId, linked });
    return done(linked ? "Edtech vinculada." : "Vínculo removido.");
  });
}

export async function applicationAccessAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return institutionAction(institutionId, form, async (scope) => {
    const { applicationId } = parseForm(ZFormTargetSchema, form);
    const rule = parseSharingRuleForm(formObject(form));
    await setApplicationAccess(rule.remove ? { scope, remove: { institutionId, applicationId } } : { scope, settings: { institutionId, applicationId, rules: rule.rules, roles: rule.roles, oneRoster: rule.oneRoster } });
    return done("Regras de compartilhamento salvas. Valem a partir da próxima leitura da aplicação.");
  });
}

export async function toolSharingAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return institutionAction(institutionId, form, async (scope) => {
    const { toolId } = parseForm(ZFormTargetSchema, form);
    const rule = parseSharingRuleForm(formObject(form));
    await setToolSharing(rule.remove ? { scope, remove: { institutionId, toolId } } : { scope, settings: { institutionId, toolId, rules: rule.rules, roles: rule.roles } });
    return done("Regras de compartilhamento salvas. Valem a partir do próximo acesso à ferramenta.");
  });
}

export async function placementAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return institutionAction(institutionId, form, async (scope) => {
    const { intent, placementId } = parseForm(ZFormTargetSchema, form);
    if (intent === "delete") {
      if (!placementId) throw new AppError("bad_request", "Disponibilização não informada.");
      await deletePlacement({ scope, placementId });
      return done("Disponibilização removida.");
    }
    await savePlacement({ scope, placementId, input: { institutionId, ...parseForm(ZPlacementFormSchema, form) } });
    return done(placementId ? "Disponibilização atualizada." : "Ferramenta disponibilizada.");
  });
}

export async function cardSettingsAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return institutionAction(institutionId, form, async (scope) => {
    const { cardNetworks, cardStudentsOnly } = parseForm(ZCardSettingsFormSchema, form);
    const { networks } = await saveCardSettings({ scope, institutionId, networks: cardNetworks, studentsOnly: cardStudentsOnly });
    return done(networks.length ? `Crachás aceitos só a partir de ${networks.length === 1 ? "1 faixa de rede" : `${networks.length} faixas de rede`}.` : "Crachás aceitos de qualquer rede.");
  });
}

export async function revokeCardAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return institutionAction(institutionId, form, async (scope) => {
    const { profileId } = parseForm(ZRevokeCardFormSchema, form);
    await revokeCard({ scope, profileId });
    return done("Crachá revogado. Imprima um novo para o aluno voltar a entrar com crachá.");
  });
}

/** "Entrada com contas da rede": add or edit an upstream identity provider. */
export async function identityProviderAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return institutionAction(institutionId, form, async (scope) => {
    const input = parseForm(ZIdentityProviderFormSchema, form);
    const { created } = await saveIdentityProvider({ scope, institutionId, input });
    return done(created ? `${input.name} adicionado. O segredo foi guardado cifrado e não será mostrado de novo.` : `${input.name}: alterações salvas.`);
  });
}

/** Enable, disable or delete an upstream identity provider: effective at the next sign-in. */
export async function identityProviderStateAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return institutionAction(institutionId, form, async (scope) => {
    const { providerId, op } = parseForm(ZIdentityProviderStateFormSchema, form);
    await setIdentityProviderState({ scope, institutionId, providerId, op });
    return done(op === "delete" ? "Forma de entrada excluída." : op === "enable" ? "Forma de entrada ativada." : "Forma de entrada desativada.");
  });
}
