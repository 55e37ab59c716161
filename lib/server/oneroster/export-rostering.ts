// Whole OneRoster collections, chunk by chunk, for the CSV binding's export: the same sources,
// rule, ids and objects as the REST binding (read-rostering.ts), walked in sourcedId order by key
// instead of by offset, so an export of a million users costs the same per chunk from start to end.
import type { TPairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { database } from "@/lib/server/db/database";
import { readsMayLag } from "@/lib/server/db/replicas";
import { applicationView, hubBaseUrl, pageWithNeeds, readMoment, shapePage, statementFor, whereSql, writeAccessLog, type TReadContext, type TRow } from "./read-rostering";
import { resolveSubtreeReach } from "./resolve-oneroster-reach";
import { collectionDef, type TCollectionName } from "./rostering-routes";

/** Who exports: an application (what OneRoster shows it) or an institution's manager (its subtree, in plain, with the Hub's ids). */
export type TExportViewer = { kind: "application"; clientId: string } | { kind: "manager"; institutionId: string };

export type TExportCollection = Extract<TCollectionName, "orgs" | "academicSessions" | "courses" | "classes" | "enrollments" | "users" | "demographics">;

export interface TRosteringExport {
  /** The institutions exported, parents first. */
  institutionIds: readonly string[];
  /** The collection's objects (as the REST binding serves them) in chunks of up to CHUNK, in sourcedId order. */
  collection(name: TExportCollection): AsyncIterable<Record<string, unknown>[]>;
}

export const EXPORT_CHUNK = 1000;

/** The Hub's own ids: a manager's export names records as the Hub does. */
const HUB_IDS: Pick<TPairwiseIds, "toPartnerMany" | "toGlobal"> = { toPartnerMany: (ids) => [...ids], toGlobal: (id) => id };

/** Opens an export at one cut: every collection of it shows the same moment of the school's data. */
export async function openRosteringExport(viewer: TExportViewer): Promise<TRosteringExport> {
  const { applicationId, reach, ids } = viewer.kind === "application" ? await applicationView(viewer.clientId) : { applicationId: "", reach: await resolveSubtreeReach(viewer.institutionId), ids: HUB_IDS };
  // One server for the whole export, chosen once: a replica within the lag bound that has replayed
  // everything before the primary's moment T, or the primary (readMoment).
  const { cut, db } = await readsMayLag(async () => readMoment(database("may-lag")));
  const context: TReadContext = {
    applicationId,
    reach,
    ids,
    baseUrl: hubBaseUrl(),
    cut,
    db,
  };
  return {
    institutionIds: reach.ids,
    async *collection(name) {
      const collection = collectionDef(name);
      let after: string | null = null;
      for (;;) {
        const statement = statementFor(context, { collection, where: [], single: null });
        const where = [...statement.where];
        if (after !== null) where.push(`src.sid > $${statement.params.push(after)}::uuid`);
        const rows: TRow[] = await db.sql.query<TRow>(
          pageWithNeeds(collection.kind, `SELECT src.* FROM ${statement.from} ${whereSql(where)} ORDER BY src.sid LIMIT $${statement.params.push(EXPORT_CHUNK)}`, "pg.sid"),
          statement.params,
        );
        if (rows.length === 0) return;
        const objects = shapePage(collection.kind, rows, context);
        if (viewer.kind === "application") writeAccessLog({ path: `/csv/${name}` }, context, rows, objects, 200);
        yield objects;
        if (rows.length < EXPORT_CHUNK) return;
        after = rows[rows.length - 1]!.sid;
      }
    },
  };
}
