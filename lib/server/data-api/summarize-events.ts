import { env } from "@/lib/env";
import { fromZodError } from "@/lib/errors";
import {
  SUMMARY_QUERY_PARAMETERS,
  ZSummaryQuerySchema,
  queryInput,
  requestedEntities,
  requestedKinds,
} from "@/lib/validations/data-api";
import { readsMayLag } from "@/lib/server/db/replicas";
import { authorizeDataAccess } from "./authorize-data-access";
import { countEventTree, type TSummaryNode } from "./count-event-tree";
import { logDataAccess } from "./log-data-access";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { toEventFilters, withGlobalUserId } from "./to-event-filters";

export type { TCounts, TSummaryNode } from "./count-event-tree";

const PARAMETER_NAMES = Object.keys(SUMMARY_QUERY_PARAMETERS);

/**
 * GET /manager/v1/summary/{org_id}: event counts per entity and kind for the institution and each
 * descendant, as a tree, with totals that include descendants. Same authorization as the data
 * endpoint; one GROUP BY over the subtree, the tree is built in memory. Only the requested
 * entities and kinds appear, each with a number (0 when none).
 */
export async function summarizeEvents(options: {
  apiKey: string | null | undefined;
  orgId: string | undefined;
  searchParams: URLSearchParams;
}): Promise<TSummaryNode> {
  // The counts may come from a replica; the key, the rules and the grants from the primary
  // (docs/decisions/042-read-replicas.md).
  return readsMayLag(() => summarize(options));
}

async function summarize(options: Parameters<typeof summarizeEvents>[0]): Promise<TSummaryNode> {
  const input = queryInput(options.searchParams, PARAMETER_NAMES);
  const audit = { endpoint: "summary" as const, filters: input };
  const grant = await authorizeDataAccess({ apiKey: options.apiKey, orgId: options.orgId, audit });
  const log = { ...audit, applicationId: grant.key.applicationId, institutionId: grant.institution.id };
  const parsed = ZSummaryQuerySchema.safeParse(input);
  if (!parsed.success) {
    const error = fromZodError(parsed.error);
    logDataAccess({ ...log, status: error.status });
    throw error;
  }
  const entities = requestedEntities(parsed.data);
  const kinds = requestedKinds(parsed.data);
  // user_id is the application's pairwise id of the profile, as in its data pages.
  const query = withGlobalUserId(parsed.data, await pairwiseIds({ kind: "application", id: grant.key.applicationId }));

  const { tree, eventCount } = await countEventTree({
    subtree: grant.subtree,
    // The application's view, as the data endpoint applies it: the counts are of what it is sent.
    filters: { ...toEventFilters(query, env().HUB_TIME_ZONE), entities, kinds, view: grant.view },
  });
  logDataAccess({ ...log, status: 200, eventCount });
  return tree;
}

