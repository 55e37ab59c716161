"use server";
import { refresh } from "next/cache";
import type { TCreatedSandbox } from "@/lib/server/sandbox/create-sandbox";
import { createSandbox } from "@/lib/server/sandbox/create-sandbox";
import { generateSandboxChanges } from "@/lib/server/sandbox/generate-sandbox-changes";
import { requireActingPersonId } from "@/lib/server/developer/get-acting-person-id";
import { done, runFormAction } from "@/lib/server/forms/run-form-action";
import { ZDeveloperFormSchema } from "@/lib/validations/developer";
import { parseForm, type TFormState } from "@/lib/validations/form";

export async function createSandboxAction(_previous: TFormState<TCreatedSandbox>, form: FormData): Promise<TFormState<TCreatedSandbox>> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const created = await createSandbox({ actorPersonId, edtechId: parseForm(ZDeveloperFormSchema, form).edtechId });
    // No refresh: the page would replace this form, and the keys it shows once, with the network.
    return { message: "Rede sandbox criada.", result: created };
  });
}

export async function generateSandboxChangesAction(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const counts = await generateSandboxChanges({ actorPersonId, edtechId: parseForm(ZDeveloperFormSchema, form).edtechId });
    refresh();
    return done(`Alterações geradas: ${counts.inserts} inclusões, ${counts.updates} atualizações e ${counts.deletes} exclusões.`);
  });
}
