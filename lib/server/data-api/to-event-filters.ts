import type { TPairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import type { TLocalDateTime } from "@/lib/validations/data-api";
import type { TEventFilters } from "./query-events";
import { zonedTimeToInstant } from "./time-zone";

/**
 * The query with `user_id` as the hub's profile id. The application sends its own (pairwise) id
 * of the profile; an id that is not one of its ids names no profile, so it matches nothing.
 */
export function withGlobalUserId<Q extends { user_id?: string }>(query: Q, ids: TPairwiseIds): Q {
  return query.user_id === undefined ? query : { ...query, user_id: ids.toGlobal(query.user_id) ?? query.user_id };
}

/**
 * Query dates are wall-clock seconds in the hub's time zone, both ends inclusive: max_date
 * 2026/03/01+10:00:00 keeps an event at 10:00:00.999.
 */
export function toEventFilters(
  query: { min_date?: TLocalDateTime; max_date?: TLocalDateTime; user_id?: string; code_term?: string },
  timeZone: string,
): Pick<TEventFilters, "from" | "until" | "userId" | "periodCode"> {
  return {
    from: query.min_date ? zonedTimeToInstant(query.min_date, timeZone) : undefined,
    until: query.max_date ? new Date(zonedTimeToInstant(query.max_date, timeZone).getTime() + 1000) : undefined,
    userId: query.user_id,
    periodCode: query.code_term,
  };
}
