import { db } from "@/lib/server/db/database";
import { findMemberApplication } from "@/lib/server/developer/find-member-application";

/** Attempts the page lists, newest first. */
const LOG_SIZE = 50;

export interface TWebhookOverview {
  application: { id: string; name: string };
  endpoints: Array<{
    id: string;
    url: string;
    description: string;
    entities: string[];
    kinds: string[];
    createdAt: Date;
    disabledAt: Date | null;
    disabledReason: string | null;
    /** One per institution whose feed the endpoint follows. */
    cursors: Array<{ institutionId: string; institutionName: string; deliveredAt: Date | null; failures: number; dueAt: Date; lastError: string | null }>;
  }>;
  attempts: Array<{
    id: string;
    endpointId: string;
    institutionName: string | null;
    messageId: string;
    trigger: string;
    eventCount: number;
    attemptedAt: Date;
    latencyMs: number;
    responseStatus: number | null;
    ok: boolean;
    error: string | null;
    /** Whether "send again" can re-read this batch (a delivery of feed events). */
    replayable: boolean;
  }>;
}

/** What /desenvolvedor/aplicacoes/{id}/webhooks shows: the endpoints, where each is in each feed, the last attempts. */
export async function getWebhookOverview(options: { personId: string; applicationId: string }): Promise<TWebhookOverview> {
  const application = await findMemberApplication({ personId: options.personId, applicationId: options.applicationId });
  const endpoints = await db().webhookEndpoint.findMany({ where: { applicationId: application.id }, orderBy: { createdAt: "asc" } });
  const ids = endpoints.map((e) => e.id);
  const [cursors, attempts] = await Promise.all([
    db().webhookCursor.findMany({ where: { endpointId: { in: ids } } }),
    db().webhookAttempt.findMany({ where: { endpointId: { in: ids } }, orderBy: { attemptedAt: "desc" }, take: LOG_SIZE }),
  ]);
  const institutionIds = [...new Set([...cursors.map((c) => c.institutionId), ...attempts.flatMap((a) => (a.institutionId ? [a.institutionId] : []))])];
  const institutions = await db().institution.findMany({ where: { id: { in: institutionIds } }, select: { id: true, name: true } });
  const nameOf = new Map(institutions.map((i) => [i.id, i.name]));
  return {
    application: { id: application.id, name: application.name },
    endpoints: endpoints.map((e) => ({
      id: e.id,
      url: e.url,
      description: e.description,
      entities: e.entities,
      kinds: e.kinds,
      createdAt: e.createdAt,
      disabledAt: e.disabledAt,
      disabledReason: e.disabledReason,
      cursors: cursors
        .filter((c) => c.endpointId === e.id)
        .map((c) => ({ institutionId: c.institutionId, institutionName: nameOf.get(c.institutionId) ?? "—", deliveredAt: c.deliveredAt, failures: c.failures, dueAt: c.dueAt, lastError: c.lastError })),
    })),
    attempts: attempts.map((a) => ({
      id: a.id,
      endpointId: a.endpointId,
      institutionName: a.institutionId ? (nameOf.get(a.institutionId) ?? "—") : null,
      messageId: a.messageId,
      trigger: a.trigger,
      eventCount: a.eventCount,
      attemptedAt: a.attemptedAt,
      latencyMs: a.latencyMs,
      responseStatus: a.responseStatus,
      ok: a.ok,
      error: a.error,
      replayable: a.institutionId !== null && a.eventCount > 0 && a.toPosition !== null,
    })),
  };
}
