// "What this application sees": one real record of the institution, passed through the Data
// API's own read path (queryEvents), privacy filter (recordFilter, with the application's
// pseudonyms) and date format (formatInZone), next to the `configuracao` the Data API would send.
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { resolveDataAccess } from "@/lib/server/data-api/authorize-data-access";
import { recordFilter } from "@/lib/server/data-api/privacy";
import { queryEvents } from "@/lib/server/data-api/query-events";
import type { TDataEvent, TDataResponse } from "@/lib/server/data-api/read-data-page";
import { formatInZone } from "@/lib/server/data-api/time-zone";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { rewritePersonRecord } from "@/lib/server/privacy/pairwise-records";
import { ZIdSchema } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export type TApplicationPreview =
  | { status: "no_contract" | "not_enabled" }
  | {
      status: "ok";
      configuracao: TDataResponse["configuracao"];
      /** The record as the Data API returns it (null when the institution has no user yet). */
      evento: TDataEvent | null;
      /** The same record with the person's current values unfiltered, for the side-by-side view. */
      original: Record<string, unknown> | null;
    };

/**
 * The preview of GET /manager/v1/data/{institutionId} for one application: its `configuracao`
 * and the latest `usuario` event of one profile (the given one, or the most recently changed).
 * The configuration comes from the Data API's own resolution (resolveDataAccess), so the two
 * cannot disagree.
 * preview.test.ts checks the result equals the real Data API response.
 */
export async function previewApplicationData(options: {
  scope: TManagerScope;
  institutionId: string;
  applicationId: string;
  profileId?: string;
}): Promise<TApplicationPreview> {
  const institution = requireInReach(options);
  const applicationId = ZIdSchema.parse(options.applicationId);
  const application = await db().oAuthApplication.findUnique({ where: { id: applicationId }, select: { id: true, edtechId: true } });
  if (!application) return { status: "no_contract" };
  const access = await resolveDataAccess({ orgId: institution.id, edtechId: application.edtechId, applicationId });
  if (access.status !== "ok") return { status: access.status === "not_enabled" ? "not_enabled" : "no_contract" };
  const { configuration } = access;
  const subtree = access.subtree.map((i) => i.id);
  const configuracao = { conjuntoDadosUsuario: { atributosPermitidos: configuration.allowed, atributosAnonimizados: configuration.anonymized } };

  const requested = ZIdSchema.safeParse(options.profileId);
  const profileId = requested.success
    ? requested.data
    : (await db().changeEvent.findFirst({ where: { institutionId: { in: subtree }, entity: "usuario" }, orderBy: { seq: "desc" }, select: { recordId: true } }))?.recordId;
  if (!profileId) return { status: "ok", configuracao, evento: null, original: null };
  // A person's usuario events are few: read them all in the Data API's order and keep the last.
  // Under the application's view (query-events.ts, TFeedView): the event its feed ends with.
  const page = await queryEvents({ filters: { institutionIds: subtree, entities: ["usuario"], userId: profileId, view: access.view }, limit: 1000 });
  const last = page.rows.at(-1);
  if (!last) return { status: "ok", configuracao, evento: null, original: null };
  const original = JSON.parse(last.record) as Record<string, unknown>;
  // The application's pairwise ids, as in its Data API pages.
  const ids = await pairwiseIds({ kind: "application", id: applicationId });
  const evento: TDataEvent = {
    id: ids.toPartner(last.id),
    evento: last.kind,
    ocorridoEm: formatInZone(last.occurredAtMs, env().HUB_TIME_ZONE),
    // A shallow copy is enough: a record is flat, and the filter only removes or replaces members.
    registro: rewritePersonRecord(ids, recordFilter(configuration, applicationId)({ ...original })),
  };
  return { status: "ok", configuracao, evento, original };
}
