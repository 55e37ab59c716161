"use server";
import { refresh } from "next/cache";
import type { TToolFormResult } from "@/components/developer/tool-form";
import { createTool } from "@/lib/server/developer/create-tool";
import { requireActingPersonId } from "@/lib/server/developer/get-acting-person-id";
import type { TLaunchTestReport } from "@/lib/server/developer/launch-test/run-launch-test";
import { runLaunchTest } from "@/lib/server/developer/launch-test/run-launch-test";
import { setToolStatus } from "@/lib/server/developer/set-tool-status";
import { updateTool } from "@/lib/server/developer/update-tool";
import { runFormAction } from "@/lib/server/forms/run-form-action";
import { ZDeveloperFormSchema, ZToolFormSchema } from "@/lib/validations/developer";
import { bytesOf, parseForm, type TFormState } from "@/lib/validations/form";
import { ZLti13FormSchema } from "@/lib/validations/lti13";
import { removeLti13Registration, saveLti13Registration } from "@/lib/server/lti13/lti13-registration";

type TToolState = TFormState<TToolFormResult>;

export async function createToolAction(_previous: TToolState, form: FormData): Promise<TToolState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { fields, sharedSecret, logo } = parseForm(ZToolFormSchema, form);
    const { tool, generatedSecret } = await createTool({ actorPersonId, edtechId: parseForm(ZDeveloperFormSchema, form).edtechId, fields, sharedSecret, logo: await bytesOf(logo) });
    refresh();
    return { message: `“${tool.title}” foi cadastrada e já pode ser colocada na galeria pelas escolas.`, result: { toolId: tool.id, generatedSecret } };
  });
}

export async function updateToolAction(_previous: TToolState, form: FormData): Promise<TToolState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { fields, sharedSecret, generateNewSecret, logo } = parseForm(ZToolFormSchema, form);
    const { tool, generatedSecret } = await updateTool({ actorPersonId, toolId: parseForm(ZDeveloperFormSchema, form).toolId, fields, sharedSecret, generateNewSecret, logo: await bytesOf(logo) });
    refresh();
    return { message: "Alterações salvas.", result: { toolId: tool.id, generatedSecret } };
  });
}

export async function setToolStatusAction(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { toolId, status } = parseForm(ZDeveloperFormSchema, form);
    await setToolStatus({ actorPersonId, toolId, status });
    refresh();
    return { message: status === "active" ? "Ferramenta reativada." : "Ferramenta retirada da galeria.", result: undefined };
  });
}

export async function runLaunchTestAction(_previous: TFormState<TLaunchTestReport>, form: FormData): Promise<TFormState<TLaunchTestReport>> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const report = await runLaunchTest({ actorPersonId, toolId: parseForm(ZDeveloperFormSchema, form).toolId });
    return { message: "", result: report };
  });
}

export async function saveLti13Action(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { toolId, ...fields } = parseForm(ZLti13FormSchema, form);
    await saveLti13Registration({ actorPersonId, toolId, fields });
    refresh();
    return { message: "Registro LTI 1.3 salvo. A ferramenta agora é aberta com LTI 1.3.", result: undefined };
  });
}

export async function removeLti13Action(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    await removeLti13Registration({ actorPersonId, toolId: parseForm(ZDeveloperFormSchema, form).toolId });
    refresh();
    return { message: "A ferramenta voltou a ser aberta com LTI 1.0.", result: undefined };
  });
}
