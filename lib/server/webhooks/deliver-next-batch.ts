// The webhook deliverer's one step: claim a due (endpoint, institution) cursor, read the next page
// of that application's Data API feed through the API's own code (readFeedPage), sign it, POST
// it, record the attempt, and move the cursor only on a 2xx (docs/decisions/026).
import { createHash, randomUUID } from "node:crypto";
import { SpanStatusCode, trace } from "@opentelemetry/api";
import { AppError } from "@/lib/errors";
import { cursorPositionSql, encodeCursor } from "@/lib/data-api/cursor";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";
import { database } from "@/lib/server/db/database";
import { metrics } from "@/lib/server/metrics/registry.mjs";
import { readFeedPage, type TFeedPage } from "@/lib/server/data-api/read-data-page";
import type { TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";
import { sendWebhook, type TSendResult } from "./send-webhook";

export interface TDeliverySettings {
  /** Names this instance in the attempt log. */
  worker: string;
  /** Events per delivery (the feed's `limit`). */
  batchSize: number;
  /** How long a claimed cursor is this worker's: longer than a read plus a 5 s POST. */
  leaseMs: number;
  /** How soon a caught-up cursor reads the feed again. */
  idleMs: number;
  /** Retries: base·2^(n−1), capped, with jitter (half fixed, half random). */
  backoffBaseMs: number;
  backoffCapMs: number;
  /** An endpoint failing for this long is disabled (HUB_WEBHOOK_DISABLE_AFTER_SECONDS, a day by default). */
  disableAfterMs: number;
  allowPrivateNetwork?: boolean;
  lookup?: TLookupAll;
  timeoutMs?: number;
}

export const DEFAULT_DELIVERY_SETTINGS: Omit<TDeliverySettings, "worker"> = {
  batchSize: 500,
  leaseMs: 60_000,
  idleMs: 500,
  backoffBaseMs: 5_000,
  backoffCapMs: 3_600_000,
  disableAfterMs: 24 * 3_600_000,
};

/** While an application has no access to the institution (contract or access removed), its cursor waits this long. */
const NO_ACCESS_RETRY_MS = 60_000;

interface TClaimed extends TBatchEndpoint {
  /** The feed may hold something new for it (NEWS_SQL); without, it was only rescheduled. */
  news: boolean;
  id: string;
  institutionId: string;
  position: string | null;
  failures: number;
  failingSince: Date | null;
  pendingLimit: number | null;
}

// Whether the feed may hold something new for a cursor (the `news` of CLAIM_SQL). Always for a
// cursor never read, failing, or showing an error (no access, say: the read clears it once access
// is back). Otherwise only when an event of its institution or a descendant sorts after its
// position (one probe of the feed's (institutionId, txid, seq) index per institution). The probe
// sees what a page read would see: an event of a transaction still running is invisible to both,
// and wakes the cursor once it commits. Filters (`only`, `event`) and sharing rules are left to
// the read: they may make a woken read empty, never a sleeping cursor miss an event. The position
// is a Data API cursor (cursorPositionSql); one it cannot read counts as news, and the read
// decides.
export const NEWS_SQL = `(d.position IS NULL OR d.failures > 0 OR d."pendingLimit" IS NOT NULL
   OR d."lastError" IS NOT NULL
   OR (SELECT p.at IS NULL OR EXISTS (
        WITH RECURSIVE ${treeCte("down", `d."institutionId"`)}
        SELECT 1 FROM down WHERE EXISTS (
          SELECT 1 FROM "ChangeEvent" e
           WHERE e."institutionId" = down.id
             AND (e.txid, e.seq) > (split_part(p.at, '.', 1)::bigint, split_part(p.at, '.', 2)::bigint)))
       FROM (SELECT ${cursorPositionSql("d.position")} AS at) p))`;

// One statement: the row is locked by the first CTE (SKIP LOCKED: another worker's claim in
// flight is passed over), which also reads what the gate needs from the row's newest version. A
// lease that expired (its worker died) makes the row claimable again, and PostgreSQL re-checks the
// lease on the newest row version, so two workers never both win it.
// With news the row is leased to this worker; without, it is only put back for its idle wait,
// unread: a caught-up cursor costs this one statement, not a feed read and two more updates.
const CLAIM_SQL = `
WITH pick AS (
  SELECT d.id, d."institutionId", d.position, d.failures, d."pendingLimit", d."lastError"
    FROM "WebhookCursor" d JOIN "WebhookEndpoint" de ON de.id = d."endpointId"
   WHERE de."disabledAt" IS NULL AND d."dueAt" <= now() AND (d."leaseUntil" IS NULL OR d."leaseUntil" < now())
   ORDER BY d."dueAt" LIMIT 1 FOR UPDATE OF d SKIP LOCKED),
gate AS MATERIALIZED (SELECT d.id, ${NEWS_SQL} AS news FROM pick d)
UPDATE "WebhookCursor" c
   SET "leaseUntil" = CASE WHEN gate.news THEN now() + $2 * interval '1 millisecond' END,
       "leaseToken" = CASE WHEN gate.news THEN $1::uuid END,
       "dueAt" = CASE WHEN gate.news THEN c."dueAt" ELSE now() + $3 * interval '1 millisecond' END
  FROM gate, "WebhookEndpoint" e JOIN "OAuthApplication" a ON a.id = e."applicationId"
 WHERE c.id = gate.id AND e.id = c."endpointId"
RETURNING gate.news, c.id, c."endpointId", c."institutionId", c.position, c.failures, c."failingSince", c."pendingLimit",
          e."applicationId", a."edtechId", e.url, e."secretSealed", e.entities, e.kinds`;

// Every update of a claimed cursor holds its lease token: a worker whose lease was taken over
// (it stalled past leaseMs) changes nothing.
const RELEASE_SQL = `UPDATE "WebhookCursor" SET "leaseUntil" = NULL, "leaseToken" = NULL, "dueAt" = now() + $3 * interval '1 millisecond', "lastError" = $4
  WHERE id = $1 AND "leaseToken" = $2::uuid`;
const ADVANCE_SQL = `UPDATE "WebhookCursor" SET position = $3, "leaseUntil" = NULL, "leaseToken" = NULL, "dueAt" = now() + $4 * interval '1 millisecond',
    failures = 0, "failingSince" = NULL, "pendingLimit" = NULL, "lastError" = NULL, "deliveredAt" = CASE WHEN $5 THEN now() ELSE "deliveredAt" END
  WHERE id = $1 AND "leaseToken" = $2::uuid`;
const FAIL_SQL = `UPDATE "WebhookCursor" SET "leaseUntil" = NULL, "leaseToken" = NULL, "dueAt" = now() + $3 * interval '1 millisecond',
    failures = failures + 1, "failingSince" = COALESCE("failingSince", now()), "pendingLimit" = $4, "lastError" = $5
  WHERE id = $1 AND "leaseToken" = $2::uuid
  RETURNING "failingSince" < now() - $6 * interval '1 millisecond' AS expired`;
const DISABLE_SQL = `UPDATE "WebhookEndpoint" SET "disabledAt" = now(), "disabledReason" = $2 WHERE id = $1 AND "disabledAt" IS NULL`;
const ATTEMPT_SQL = `INSERT INTO "WebhookAttempt" ("endpointId", "institutionId", "messageId", trigger, "fromPosition", "toPosition", "eventCount", "latencyMs", "responseStatus", ok, error, worker)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`;

/** The stable webhook-id of a batch: the endpoint, the institution and the batch's range of the feed. */
export function batchMessageId(endpointId: string, institutionId: string, from: string | null, to: string): string {
  return `msg_${createHash("sha256").update(`${endpointId}|${institutionId}|${from ?? ""}|${to}`).digest("base64url").slice(0, 32)}`;
}

/**
 * The body of a delivery: the Standard Webhooks envelope around the page exactly as the Data API
 * answers it (its bytes spliced, not re-serialised).
 */
export function batchPayload(institutionId: string, page: Pick<TFeedPage, "body">, at = new Date()): string {
  return `{"type":"dados.alterados","timestamp":"${at.toISOString()}","instituicaoId":"${institutionId}","data":${page.body.bytes.toString("utf8")}}`;
}

export function backoffMs(failures: number, settings: Pick<TDeliverySettings, "backoffBaseMs" | "backoffCapMs">, random = Math.random): number {
  const full = Math.min(settings.backoffCapMs, settings.backoffBaseMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(full / 2 + (random() * full) / 2);
}

/** The feed query of a cursor's next batch (the endpoint's filters, its position, the batch size). */
export function batchQuery(options: { position: string | null; limit: number; entities: string[]; kinds: string[] }): URLSearchParams {
  const query = new URLSearchParams({ limit: String(options.limit) });
  if (options.position) query.set("cursor", options.position);
  if (options.entities.length) query.set("only", options.entities.join(","));
  if (options.kinds.length) query.set("event", options.kinds.join(","));
  return query;
}

/** What a batch is sent to: an endpoint and its application. */
export interface TBatchEndpoint {
  endpointId: string;
  applicationId: string;
  edtechId: string;
  url: string;
  secretSealed: string;
  entities: string[];
  kinds: string[];
}

/** The batch of the feed after `from` (null: the start), as the Data API answers it to the endpoint's application. */
export function readBatch(endpoint: TBatchEndpoint, institutionId: string, from: string | null, limit: number): Promise<TFeedPage> {
  return readFeedPage({
    reader: { applicationId: endpoint.applicationId, edtechId: endpoint.edtechId },
    orgId: institutionId,
    searchParams: batchQuery({ position: from, limit, entities: endpoint.entities, kinds: endpoint.kinds }),
    logFilters: { webhook: endpoint.endpointId },
    logEmpty: false,
  });
}

export type TAttemptTrigger = "delivery" | "retry" | "replay" | "test";

/** Signs and POSTs one message, and records the attempt (never the body). */
export async function sendAndRecord(options: {
  endpoint: TBatchEndpoint;
  institutionId: string | null;
  messageId: string;
  payload: string;
  trigger: TAttemptTrigger;
  range: { from: string | null; to: string | null; eventCount: number };
  settings: Pick<TDeliverySettings, "worker" | "allowPrivateNetwork" | "lookup" | "timeoutMs">;
}): Promise<TSendResult> {
  const { endpoint, settings } = options;
  const result = await sendWebhook({
    url: endpoint.url,
    secretSealed: endpoint.secretSealed,
    messageId: options.messageId,
    payload: options.payload,
    ...(settings.allowPrivateNetwork !== undefined ? { allowPrivateNetwork: settings.allowPrivateNetwork } : {}),
    ...(settings.lookup ? { lookup: settings.lookup } : {}),
    ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
  });
  await database().sql.query(ATTEMPT_SQL, [
    endpoint.endpointId, options.institutionId, options.messageId, options.trigger, options.range.from, options.range.to, options.range.eventCount,
    result.latencyMs, result.status, result.ok, result.error, settings.worker,
  ]);
  return result;
}

/** Sends a batch read with readBatch, under its stable webhook-id. */
export function sendBatch(endpoint: TBatchEndpoint, institutionId: string, from: string | null, page: TFeedPage, trigger: TAttemptTrigger, settings: Pick<TDeliverySettings, "worker" | "allowPrivateNetwork" | "lookup" | "timeoutMs">): Promise<TSendResult> {
  const to = encodeCursor(page.last!);
  return sendAndRecord({
    endpoint,
    institutionId,
    messageId: batchMessageId(endpoint.endpointId, institutionId, from, to),
    payload: batchPayload(institutionId, page),
    trigger,
    range: { from, to, eventCount: page.eventCount },
    settings,
  });
}

/** "idle": a cursor with nothing new was put back unread; "caught_up": it was read and had nothing. */
export type TStepResult = "none" | "idle" | "caught_up" | "no_access" | "delivered" | "failed" | "lease_lost";

const durationText = (ms: number) =>
  ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)} h` : ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;

/**
 * 410 Gone: the receiver says the endpoint is gone for good, so it is disabled at once rather than
 * retried for a day (what Stripe, GitHub and Svix do with it). Any other failure waits the window.
 */
const GONE = 410;

/** One step of the worker loop; "none" when no cursor is due. */
export async function deliverNextBatch(settings: TDeliverySettings, onClaimed?: () => void): Promise<TStepResult> {
  const token = randomUUID();
  const [c] = await database().sql.query<TClaimed>(CLAIM_SQL, [token, settings.leaseMs, settings.idleMs], { prepared: true });
  if (!c) return "none";
  // Due cursors were found: others may be due too (run-webhook-worker.ts wakes its waiting loops).
  onClaimed?.();
  if (!c.news) return "idle";
  // A claimed cursor's work is a trace of its own when traces are on (lib/server/tracing): its
  // feed read, the POST and the cursor's update; the polls before it are not traced.
  return trace.getTracer("hub").startActiveSpan("webhook delivery", { attributes: { "hub.webhook.endpoint": c.endpointId, "hub.institution": c.institutionId } }, async (span) => {
    try {
      const result = await deliverClaimed(c, token, settings);
      span.setAttribute("hub.webhook.result", result);
      return result;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Reads, sends and records the batch of a cursor this worker claimed (its lease `token`). */
async function deliverClaimed(c: TClaimed, token: string, settings: TDeliverySettings): Promise<TStepResult> {
  const sql = database().sql;
  let page: TFeedPage;
  try {
    page = await readBatch(c, c.institutionId, c.position, c.pendingLimit ?? settings.batchSize);
  } catch (error) {
    const refused = error instanceof AppError;
    await sql.query(RELEASE_SQL, [c.id, token, refused ? NO_ACCESS_RETRY_MS : settings.idleMs, refused ? `Sem acesso aos dados da instituição: ${error.message}` : null]);
    if (refused) return "no_access";
    throw error;
  }
  const resume = encodeCursor(page.resume);
  if (page.eventCount === 0) {
    const [moved] = await sql.query<{ id: string }>(`${ADVANCE_SQL} RETURNING id`, [c.id, token, resume, settings.idleMs, false]);
    return moved ? "caught_up" : "lease_lost";
  }
  const result = await sendBatch(c, c.institutionId, c.position, page, c.failures > 0 ? "retry" : "delivery", settings);
  const { webhookDeliveries, webhookLag } = metrics();
  webhookDeliveries.inc({ endpoint: c.endpointId, result: result.ok ? "ok" : "failed" });
  if (result.ok && page.oldestOccurredAtMs !== undefined) webhookLag.observe({ endpoint: c.endpointId }, Math.max(0, Date.now() - page.oldestOccurredAtMs) / 1000);
  if (result.ok) {
    const [moved] = await sql.query<{ id: string }>(`${ADVANCE_SQL} RETURNING id`, [c.id, token, resume, page.hasMore ? 0 : settings.idleMs, true]);
    return moved ? "delivered" : "lease_lost";
  }
  const [failed] = await sql.query<{ expired: boolean }>(FAIL_SQL, [c.id, token, backoffMs(c.failures + 1, settings), page.eventCount, result.error, settings.disableAfterMs]);
  if (failed && result.status === GONE) {
    await sql.query(DISABLE_SQL, [c.endpointId, "Desativado na hora: o receptor respondeu 410 Gone, que diz que o endpoint não existe mais. Corrija o endereço ou reative o endpoint quando ele voltar a receber."]);
  } else if (failed?.expired) {
    await sql.query(DISABLE_SQL, [c.endpointId, `Desativado após ${c.failures + 1} tentativas sem sucesso em mais de ${durationText(settings.disableAfterMs)}. Última falha: ${result.error ?? "desconhecida"}`]);
  }
  return failed ? "failed" : "lease_lost";
}
