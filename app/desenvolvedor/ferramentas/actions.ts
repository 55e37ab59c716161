"use server";
import { refresh } from "next/cache";
import type { TToolFormResult } from "@/components/developer/tool-form";
import { createTool } from "@/lib/server/developer/create-tool";
import { getActingPersonId } from "@/lib/server/developer/get-acting-person-id";
import type { TLaunchTestReport } from "@/lib/server/developer/launch-test/run-launch-test";
import { runLaunchTest } from "@/lib/server/developer/launch-test/run-launch-test";
import { setToolStatus } from "@/lib/server/developer/set-tool-status";
import { toFormError } from "@/lib/server/developer/to-form-error";
import { updateTool } from "@/lib/server/developer/update-tool";
import type { TFormState } from "@/lib/validations/developer";

const TEXT_FIELDS = ["title", "shortDescription", "longDescription", "siteUrl", "launchUrl", "consumerKey"] as const;
const SIGNED_OUT = "Sua sessão expirou. Entre novamente para continuar.";

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** The typed fields, to refill the form after an error (never the secret). */
function toolValues(form: FormData): Record<string, string> {
  return Object.fromEntries(TEXT_FIELDS.map((name) => [name, text(form, name)]));
}

async function logoBytes(form: FormData): Promise<Uint8Array | null> {
  const file = form.get("logo");
  if (!(file instanceof File) || file.size === 0) return null;
  return new Uint8Array(await file.arrayBuffer());
}

export async function createToolAction(_previous: TFormState<TToolFormResult>, form: FormData): Promise<TFormState<TToolFormResult>> {
  const values = toolValues(form);
  const personId = await getActingPersonId();
  if (!personId) return { status: "error", message: SIGNED_OUT, fieldErrors: {}, values };
  try {
    const { tool, generatedSecret } = await createTool({
      actorPersonId: personId,
      edtechId: text(form, "edtechId"),
      fields: values,
      sharedSecret: text(form, "sharedSecret"),
      logo: await logoBytes(form),
    });
    refresh();
    return {
      status: "success",
      message: `“${tool.title}” foi cadastrada e já pode ser colocada na galeria pelas escolas.`,
      result: { toolId: tool.id, generatedSecret },
    };
  } catch (error) {
    return toFormError(error, values);
  }
}

export async function updateToolAction(_previous: TFormState<TToolFormResult>, form: FormData): Promise<TFormState<TToolFormResult>> {
  const values = toolValues(form);
  const personId = await getActingPersonId();
  if (!personId) return { status: "error", message: SIGNED_OUT, fieldErrors: {}, values };
  try {
    const { tool, generatedSecret } = await updateTool({
      actorPersonId: personId,
      toolId: text(form, "toolId"),
      fields: values,
      sharedSecret: text(form, "sharedSecret"),
      generateNewSecret: text(form, "generateNewSecret") === "1",
      logo: await logoBytes(form),
    });
    refresh();
    return { status: "success", message: "Alterações salvas.", result: { toolId: tool.id, generatedSecret } };
  } catch (error) {
    return toFormError(error, values);
  }
}

export async function setToolStatusAction(_previous: TFormState<undefined>, form: FormData): Promise<TFormState<undefined>> {
  const personId = await getActingPersonId();
  if (!personId) return { status: "error", message: SIGNED_OUT, fieldErrors: {}, values: {} };
  const status = text(form, "status") === "active" ? "active" : "withdrawn";
  try {
    await setToolStatus({ actorPersonId: personId, toolId: text(form, "toolId"), status });
    refresh();
    return { status: "success", message: status === "active" ? "Ferramenta reativada." : "Ferramenta retirada da galeria.", result: undefined };
  } catch (error) {
    return toFormError(error);
  }
}

export async function runLaunchTestAction(_previous: TFormState<TLaunchTestReport>, form: FormData): Promise<TFormState<TLaunchTestReport>> {
  const personId = await getActingPersonId();
  if (!personId) return { status: "error", message: SIGNED_OUT, fieldErrors: {}, values: {} };
  try {
    const report = await runLaunchTest({ actorPersonId: personId, toolId: text(form, "toolId") });
    return { status: "success", message: "", result: report };
  } catch (error) {
    return toFormError(error);
  }
}
