// "What this application sees": real records of the institution (one per role), passed through
// the Data API's own read path (queryEvents), privacy filter (recordFilterByRole, with the
// application's pseudonyms) and date format (formatInZone), next to the `configuracao` the Data API would send.
import { db } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import { resolveDataAccess } from "@/lib/server/data-api/authorize-data-access";
import { recordFilterByRole, toConfiguracao } from "@/lib/server/data-api/privacy";
import { queryEvents } from "@/lib/server/data-api/query-events";
import type { TDataEvent, TDataResponse } from "@/lib/server/data-api/read-data-page";
import { formatInZone } from "@/lib/server/data-api/time-zone";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { rewritePersonRecord } from "@/lib/server/privacy/pairwise-records";
import { PROFILE_ROLES, type TProfileRole } from "@/lib/validations/data-api";
import { ZIdSchema } from "@/lib/validations/management";
import { findSampleProfileId } from "./preview-sample-profile";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TPreviewSample {
  /** The record as the Data API returns it (null when there is none). */
  evento: TDataEvent | null;
  /** The same record with the person's current values unfiltered, for the side-by-side view. */
  original: Record<string, unknown> | null;
}

export type TApplicationPreview =
  | { status: "no_contract" | "not_enabled" }
  | ({
      status: "ok";
      configuracao: TDataResponse["configuracao"];
      /** One person per role (the latest changed of that role), each with her role's rule. */
      porPerfil: ({ role: TProfileRole } & TPreviewSample)[];
    } & TPreviewSample);

/**
 * The preview of GET /manager/v1/data/{institutionId} for one application: its `configuracao`,
 * the latest `usuario` event of one profile (the given one, or the most recently changed) and,
 * since the rule may differ per role, of the most recently changed profile of each role.
 * The configuration comes from the Data API's own resolution (resolveDataAccess) and each record
 * goes through the Data API's per-role filter, so the two cannot disagree.
 * data-api-views.test.ts checks the result equals the real Data API response.
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
  const subtree = access.subtree.map((i) => i.id);
  const filter = recordFilterByRole(access.configurations, applicationId);

  // The application's pairwise ids, as in its Data API pages.
  const ids = await pairwiseIds({ kind: "application", id: applicationId });
  /** The latest usuario event of one profile, as the Data API delivers it to this application. */
  const sampleOf = async (profileId: string | undefined): Promise<TPreviewSample> => {
    if (!profileId) return { evento: null, original: null };
    // A person's usuario events are few: read them all in the Data API's order and keep the last.
    // Under the application's view (query-events.ts, TFeedView): the event its feed ends with.
    const page = await queryEvents({ filters: { institutionIds: subtree, entities: ["usuario"], userId: profileId, view: access.view }, limit: 1000 });
    const last = page.rows.at(-1);
    if (!last) return { evento: null, original: null };
    const original = JSON.parse(last.record) as Record<string, unknown>;
    return {
      evento: {
        id: ids.toPartner(last.id),
        evento: last.kind,
        ocorridoEm: formatInZone(last.occurredAtMs, env().HUB_TIME_ZONE),
        // A shallow copy is enough: a record is flat, and the filter only removes or replaces members.
        registro: rewritePersonRecord(ids, filter({ ...original })),
      },
      original,
    };
  };
  const requested = ZIdSchema.safeParse(options.profileId);
  const [main, porPerfil] = await Promise.all([
    sampleOf(requested.success ? requested.data : await findSampleProfileId({ institutionIds: subtree })),
    Promise.all(PROFILE_ROLES.map(async (role) => ({ role, ...(await sampleOf(await findSampleProfileId({ institutionIds: subtree, role }))) }))),
  ]);
  return { status: "ok", configuracao: toConfiguracao(access.configurations), ...main, porPerfil: porPerfil.filter((s) => s.evento !== null) };
}
