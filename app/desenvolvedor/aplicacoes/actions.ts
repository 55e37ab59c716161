"use server";
import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import type { TApplicationFormResult } from "@/components/developer/application-form";
import { createApplication } from "@/lib/server/developer/create-application";
import { createApplicationKey } from "@/lib/server/developer/create-application-key";
import { deleteApplication } from "@/lib/server/developer/delete-application";
import { getActingPersonId } from "@/lib/server/developer/get-acting-person-id";
import { revokeApplicationKey } from "@/lib/server/developer/revoke-application-key";
import { rotateApplicationSecret } from "@/lib/server/developer/rotate-application-secret";
import { toFormError } from "@/lib/server/developer/to-form-error";
import { updateApplication } from "@/lib/server/developer/update-application";
import type { TFormState } from "@/lib/validations/developer";

const FIELDS = ["name", "description", "homepageUrl", "redirectUris", "defaultResponseType"] as const;
const SIGNED_OUT = "Sua sessão expirou. Entre novamente para continuar.";

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

function applicationValues(form: FormData): Record<string, string> {
  return Object.fromEntries(FIELDS.map((name) => [name, text(form, name)]));
}

function signedOut<R>(values: Record<string, string> = {}): TFormState<R> {
  return { status: "error", message: SIGNED_OUT, fieldErrors: {}, values };
}

export async function createApplicationAction(_previous: TFormState<TApplicationFormResult>, form: FormData): Promise<TFormState<TApplicationFormResult>> {
  const values = applicationValues(form);
  const personId = await getActingPersonId();
  if (!personId) return signedOut(values);
  try {
    const { application, clientSecret } = await createApplication({ actorPersonId: personId, edtechId: text(form, "edtechId"), fields: values });
    refresh();
    return {
      status: "success",
      message: `“${application.name}” foi criada.`,
      result: { applicationId: application.id, clientId: application.clientId, clientSecret },
    };
  } catch (error) {
    return toFormError(error, values);
  }
}

export async function updateApplicationAction(_previous: TFormState<TApplicationFormResult>, form: FormData): Promise<TFormState<TApplicationFormResult>> {
  const values = applicationValues(form);
  const personId = await getActingPersonId();
  if (!personId) return signedOut(values);
  try {
    const application = await updateApplication({ actorPersonId: personId, applicationId: text(form, "applicationId"), fields: values });
    refresh();
    return { status: "success", message: "Alterações salvas.", result: { applicationId: application.id, clientId: application.clientId, clientSecret: null } };
  } catch (error) {
    return toFormError(error, values);
  }
}

export async function rotateApplicationSecretAction(_previous: TFormState<{ clientSecret: string }>, form: FormData): Promise<TFormState<{ clientSecret: string }>> {
  const personId = await getActingPersonId();
  if (!personId) return signedOut();
  try {
    const { clientSecret } = await rotateApplicationSecret({ actorPersonId: personId, applicationId: text(form, "applicationId") });
    return { status: "success", message: "Novo client_secret gerado.", result: { clientSecret } };
  } catch (error) {
    return toFormError(error);
  }
}

export async function deleteApplicationAction(_previous: TFormState<undefined>, form: FormData): Promise<TFormState<undefined>> {
  const personId = await getActingPersonId();
  if (!personId) return signedOut();
  try {
    await deleteApplication({ actorPersonId: personId, applicationId: text(form, "applicationId"), confirmName: text(form, "confirmName") });
  } catch (error) {
    return toFormError(error);
  }
  redirect("/desenvolvedor?excluida=1");
}

export async function createApiKeyAction(_previous: TFormState<{ key: string; prefix: string }>, form: FormData): Promise<TFormState<{ key: string; prefix: string }>> {
  const personId = await getActingPersonId();
  if (!personId) return signedOut();
  try {
    const { apiKey, key } = await createApplicationKey({ actorPersonId: personId, applicationId: text(form, "applicationId"), name: text(form, "name") });
    refresh();
    return { status: "success", message: "Chave criada.", result: { key, prefix: apiKey.prefix } };
  } catch (error) {
    return toFormError(error);
  }
}

export async function revokeApiKeyAction(_previous: TFormState<undefined>, form: FormData): Promise<TFormState<undefined>> {
  const personId = await getActingPersonId();
  if (!personId) return signedOut();
  try {
    await revokeApplicationKey({ actorPersonId: personId, applicationId: text(form, "applicationId"), apiKeyId: text(form, "apiKeyId") });
    refresh();
    return { status: "success", message: "Chave revogada.", result: undefined };
  } catch (error) {
    return toFormError(error);
  }
}
