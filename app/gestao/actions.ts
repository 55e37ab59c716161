"use server";
import { revalidatePath } from "next/cache";
import { editInstitutionTree } from "@/lib/server/management/edit-institution-tree";
import { runFormAction, type TFormState } from "@/lib/server/management/run-form-action";

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

export async function createInstitutionAction(_state: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, async (scope) => {
    await editInstitutionTree({ scope, command: { type: "create", parentId: text(form, "parentId"), name: text(form, "name"), kind: text(form, "kind") as "school" } });
    revalidatePath("/gestao", "layout");
    return "Unidade criada.";
  });
}

export async function renameInstitutionAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, async (scope) => {
    await editInstitutionTree({ scope, command: { type: "rename", institutionId, name: text(form, "name") } });
    revalidatePath("/gestao", "layout");
    return "Nome atualizado.";
  });
}

export async function moveInstitutionAction(institutionId: string, _state: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, async (scope) => {
    await editInstitutionTree({ scope, command: { type: "move", institutionId, parentId: text(form, "parentId") } });
    revalidatePath("/gestao", "layout");
    return "Instituição movida.";
  });
}
