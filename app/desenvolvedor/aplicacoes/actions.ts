"use server";
import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import type { TApplicationFormResult } from "@/components/developer/application-form";
import { createApplication } from "@/lib/server/developer/create-application";
import { createApplicationKey } from "@/lib/server/developer/create-application-key";
import { deleteApplication } from "@/lib/server/developer/delete-application";
import { requireActingPersonId } from "@/lib/server/developer/get-acting-person-id";
import { revokeApplicationKey } from "@/lib/server/developer/revoke-application-key";
import { rotateApplicationSecret } from "@/lib/server/developer/rotate-application-secret";
import { updateApplication } from "@/lib/server/developer/update-application";
import { runFormAction } from "@/lib/server/forms/run-form-action";
import { ZApplicationFormSchema, ZDeveloperFormSchema } from "@/lib/validations/developer";
import { parseForm, type TFormState } from "@/lib/validations/form";

type TApplicationState = TFormState<TApplicationFormResult>;

export async function createApplicationAction(_previous: TApplicationState, form: FormData): Promise<TApplicationState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { edtechId } = parseForm(ZDeveloperFormSchema, form);
    const { application, clientSecret } = await createApplication({ actorPersonId, edtechId, fields: parseForm(ZApplicationFormSchema, form) });
    refresh();
    return { message: `“${application.name}” foi criada.`, result: { applicationId: application.id, clientId: application.clientId, clientSecret } };
  });
}

export async function updateApplicationAction(_previous: TApplicationState, form: FormData): Promise<TApplicationState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId } = parseForm(ZDeveloperFormSchema, form);
    const application = await updateApplication({ actorPersonId, applicationId, fields: parseForm(ZApplicationFormSchema, form) });
    refresh();
    return { message: "Alterações salvas.", result: { applicationId: application.id, clientId: application.clientId, clientSecret: null } };
  });
}

export async function rotateApplicationSecretAction(_previous: TFormState<{ clientSecret: string }>, form: FormData): Promise<TFormState<{ clientSecret: string }>> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { clientSecret } = await rotateApplicationSecret({ actorPersonId, applicationId: parseForm(ZDeveloperFormSchema, form).applicationId });
    return { message: "Novo client_secret gerado.", result: { clientSecret } };
  });
}

export async function deleteApplicationAction(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId, confirmName } = parseForm(ZDeveloperFormSchema, form);
    await deleteApplication({ actorPersonId, applicationId, confirmName });
    redirect("/desenvolvedor?excluida=1");
  });
}

export async function createApiKeyAction(_previous: TFormState<{ key: string; prefix: string }>, form: FormData): Promise<TFormState<{ key: string; prefix: string }>> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId, name } = parseForm(ZDeveloperFormSchema, form);
    const { apiKey, key } = await createApplicationKey({ actorPersonId, applicationId, name });
    refresh();
    return { message: "Chave criada.", result: { key, prefix: apiKey.prefix } };
  });
}

export async function revokeApiKeyAction(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId, apiKeyId } = parseForm(ZDeveloperFormSchema, form);
    await revokeApplicationKey({ actorPersonId, applicationId, apiKeyId });
    refresh();
    return { message: "Chave revogada.", result: undefined };
  });
}
