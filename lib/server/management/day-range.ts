import { env } from "@/lib/env";
import { zonedTimeToInstant } from "@/lib/server/data-api/time-zone";

/**
 * Calendar days typed in a form (AAAA-MM-DD, in the hub's time zone, both inclusive) → the
 * instants [from, until) that bound them, the same reading the Data API gives its dates.
 */
export function dayRange(options: { from?: string; to?: string }): { from?: Date; until?: Date } {
  const timeZone = env().HUB_TIME_ZONE;
  const start = (day: string) => {
    const [year, month, d] = day.split("-").map(Number) as [number, number, number];
    return zonedTimeToInstant({ year, month, day: d, hour: 0, minute: 0, second: 0 }, timeZone);
  };
  const next = (day: string) => {
    const date = new Date(`${day}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + 1);
    return start(date.toISOString().slice(0, 10));
  };
  return { from: options.from ? start(options.from) : undefined, until: options.to ? next(options.to) : undefined };
}
