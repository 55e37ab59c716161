"use server";
import { revalidatePath } from "next/cache";
import { done, runFormAction } from "@/lib/server/forms/run-form-action";
import { currentManagerScope } from "@/lib/server/management/current-manager-scope";
import { editInstitutionTree } from "@/lib/server/management/edit-institution-tree";
import type { TFormState } from "@/lib/validations/form";
import { parseForm } from "@/lib/validations/form";
import { ZCreateInstitutionFormSchema, ZMoveInstitutionFormSchema, ZRenameInstitutionFormSchema, type TInstitutionCommand } from "@/lib/validations/management";

/** Every institution-tree form: the command, then the whole area re-rendered. */
function treeAction(form: FormData, command: () => TInstitutionCommand, message: string): Promise<TFormState> {
  return runFormAction(form, currentManagerScope, async (scope) => {
    await editInstitutionTree({ scope, command: command() });
    revalidatePath("/gestao", "layout");
    return done(message);
  });
}

export async function createInstitutionAction(_state: TFormState, form: FormData): Promise<TFormState> {
  return treeAction(form, () => parseForm(ZCreateInstitutionFormSchema, form), "Unidade criada.");
}

export async function renameInstitutionAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return treeAction(form, () => ({ type: "rename", institutionId, ...parseForm(ZRenameInstitutionFormSchema, form) }), "Nome atualizado.");
}

export async function moveInstitutionAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return treeAction(form, () => ({ type: "move", institutionId, ...parseForm(ZMoveInstitutionFormSchema, form) }), "Instituição movida.");
}
