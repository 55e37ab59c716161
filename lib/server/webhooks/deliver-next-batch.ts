// The webhook deliverer's one step: claim a due (endpoint, institution) cursor, read the next page
// of that application's Data API feed through the API's own code (readFeedPage), sign it, POST
// it, record the attempt, and move the cursor only on a 2xx (docs/decisions/026).
import { createHash, randomUUID } from "node:crypto";
import { AppError } from "@/lib/errors";
import { encodeCursor } from "@/lib/data-api/cursor";
import { database } from "@/lib/server/db/database";
import { readFeedPage, type TFeedPage } from "@/lib/server/data-api/read-data-page";
import type { TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";
import { sendWebhook } from "./send-webhook";

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
  /** An endpoint failing for this long is disabled (at least 24 h in production). */
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

interface TClaimed {
  id: string;
  endpointId: string;
  institutionId: string;
  position: string | null;
  failures: number;
  failingSince: Date | null;
  pendingLimit: number | null;
  applicationId: string;
  edtechId: string;
  url: string;
  secretSealed: string;
  entities: string[];
  kinds: string[];
}

// One statement: the row is locked by the sub-select (SKIP LOCKED: another worker's claim in
// flight is passed over) and leased by the update; a lease that expired (its worker died) makes
// the row claimable again. PostgreSQL re-checks the lease on the newest row version, so two
// workers never both win it.
const CLAIM_SQL = `
UPDATE "WebhookCursor" c SET "leaseUntil" = now() + $2 * interval '1 millisecond', "leaseToken" = $1::uuid
  FROM "WebhookEndpoint" e JOIN "OAuthApplication" a ON a.id = e."applicationId"
 WHERE e.id = c."endpointId" AND c.id = (
   SELECT d.id FROM "WebhookCursor" d JOIN "WebhookEndpoint" de ON de.id = d."endpointId"
    WHERE de."disabledAt" IS NULL AND d."dueAt" <= now() AND (d."leaseUntil" IS NULL OR d."leaseUntil" < now())
    ORDER BY d."dueAt" LIMIT 1 FOR UPDATE OF d SKIP LOCKED)
RETURNING c.id, c."endpointId", c."institutionId", c.position, c.failures, c."failingSince", c."pendingLimit",
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

export type TStepResult = "none" | "caught_up" | "no_access" | "delivered" | "failed" | "lease_lost";

/** One step of the worker loop; "none" when no cursor is due. */
export async function deliverNextBatch(settings: TDeliverySettings): Promise<TStepResult> {
  const sql = database().sql;
  const token = randomUUID();
  const [claimed] = await sql.query<TClaimed>(CLAIM_SQL, [token, settings.leaseMs]);
  if (!claimed) return "none";
  const c = claimed;
  let page: TFeedPage;
  try {
    page = await readFeedPage({
      reader: { applicationId: c.applicationId, edtechId: c.edtechId },
      orgId: c.institutionId,
      searchParams: batchQuery({ position: c.position, limit: c.pendingLimit ?? settings.batchSize, entities: c.entities, kinds: c.kinds }),
      logFilters: { webhook: c.endpointId },
      logEmpty: false,
    });
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
  const to = encodeCursor(page.last!);
  const messageId = batchMessageId(c.endpointId, c.institutionId, c.position, to);
  const result = await sendWebhook({
    url: c.url,
    secretSealed: c.secretSealed,
    messageId,
    payload: batchPayload(c.institutionId, page),
    ...(settings.allowPrivateNetwork !== undefined ? { allowPrivateNetwork: settings.allowPrivateNetwork } : {}),
    ...(settings.lookup ? { lookup: settings.lookup } : {}),
    ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
  });
  await sql.query(ATTEMPT_SQL, [
    c.endpointId, c.institutionId, messageId, c.failures > 0 ? "retry" : "delivery", c.position, to, page.eventCount,
    result.latencyMs, result.status, result.ok, result.error, settings.worker,
  ]);
  if (result.ok) {
    const [moved] = await sql.query<{ id: string }>(`${ADVANCE_SQL} RETURNING id`, [c.id, token, resume, page.hasMore ? 0 : settings.idleMs, true]);
    return moved ? "delivered" : "lease_lost";
  }
  const [failed] = await sql.query<{ expired: boolean }>(FAIL_SQL, [c.id, token, backoffMs(c.failures + 1, settings), page.eventCount, result.error, settings.disableAfterMs]);
  if (failed?.expired) {
    const hours = Math.round(settings.disableAfterMs / 3_600_000);
    await sql.query(DISABLE_SQL, [c.endpointId, `Desativado após ${c.failures + 1} tentativas sem sucesso por mais de ${hours} h. Última falha: ${result.error ?? "desconhecida"}`]);
  }
  return failed ? "failed" : "lease_lost";
}
