// The period of the usage counts (issue #19): calendar days in the hub's time zone, both
// inclusive, as the manager page (`de`, `ate`) and /manager/v1/usage (`from`, `to`) take them.
import { z } from "zod";

/** The longest period one request may ask for. */
export const MAX_USAGE_DAYS = 366;
/** Without dates: the last 30 days, today included. */
export const DEFAULT_USAGE_DAYS = 30;

const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use o formato AAAA-MM-DD")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "Data inexistente");

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v || undefined);
const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** `today` is the hub's current day (AAAA-MM-DD); the result has both ends filled in. */
export function usagePeriodSchema(today: string, names: { from: string; to: string }) {
  return z
    .object({ [names.from]: z.preprocess(first, ZDay.optional()), [names.to]: z.preprocess(first, ZDay.optional()) })
    .transform((v) => {
      const to = (v[names.to] as string | undefined) ?? (v[names.from] ? addDays(v[names.from] as string, DEFAULT_USAGE_DAYS - 1) : today);
      const from = (v[names.from] as string | undefined) ?? addDays(to, -(DEFAULT_USAGE_DAYS - 1));
      return { from, to };
    })
    .superRefine((p, ctx) => {
      if (p.from > p.to) ctx.addIssue({ code: "custom", path: [names.to], message: "A data final vem antes da inicial" });
      else if (addDays(p.from, MAX_USAGE_DAYS - 1) < p.to) ctx.addIssue({ code: "custom", path: [names.to], message: `No máximo ${MAX_USAGE_DAYS} dias por consulta` });
    });
}
