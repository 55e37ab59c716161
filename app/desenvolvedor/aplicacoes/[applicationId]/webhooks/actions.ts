"use server";
import { refresh } from "next/cache";
import { requireActingPersonId } from "@/lib/server/developer/get-acting-person-id";
import { done, runFormAction } from "@/lib/server/forms/run-form-action";
import { createWebhookEndpoint } from "@/lib/server/webhooks/create-webhook-endpoint";
import { replayWebhookAttempt } from "@/lib/server/webhooks/replay-webhook-attempt";
import { sendTestWebhook } from "@/lib/server/webhooks/send-test-webhook";
import { setWebhookEndpointState } from "@/lib/server/webhooks/set-webhook-endpoint-state";
import type { TSendResult } from "@/lib/server/webhooks/send-webhook";
import { formObject, parseForm, type TFormState } from "@/lib/validations/form";
import { ZWebhookTargetSchema } from "@/lib/validations/webhooks";

const outcome = (result: TSendResult) =>
  result.ok ? `Entregue: ${result.status} em ${result.latencyMs} ms.` : `Não entregue: ${result.error ?? "falha"}`;

export async function createWebhookAction(_previous: TFormState<{ secret: string }>, form: FormData): Promise<TFormState<{ secret: string }>> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId } = parseForm(ZWebhookTargetSchema, form);
    const { secret } = await createWebhookEndpoint({ actorPersonId, applicationId, fields: formObject(form) });
    refresh();
    return { message: "Endpoint criado.", result: { secret } };
  });
}

export async function sendTestWebhookAction(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId, endpointId } = parseForm(ZWebhookTargetSchema, form);
    const result = await sendTestWebhook({ actorPersonId, applicationId, endpointId });
    refresh();
    return done(outcome(result));
  });
}

export async function replayWebhookAction(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId, attemptId } = parseForm(ZWebhookTargetSchema, form);
    const result = await replayWebhookAttempt({ actorPersonId, applicationId, attemptId });
    refresh();
    return done(outcome(result));
  });
}

export async function enableWebhookAction(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId, endpointId } = parseForm(ZWebhookTargetSchema, form);
    await setWebhookEndpointState({ actorPersonId, applicationId, endpointId, state: "enabled" });
    refresh();
    return done("Endpoint reativado.");
  });
}

export async function deleteWebhookAction(_previous: TFormState, form: FormData): Promise<TFormState> {
  return runFormAction(form, requireActingPersonId, async (actorPersonId) => {
    const { applicationId, endpointId } = parseForm(ZWebhookTargetSchema, form);
    await setWebhookEndpointState({ actorPersonId, applicationId, endpointId, state: "deleted" });
    refresh();
    return done("Endpoint excluído.");
  });
}
