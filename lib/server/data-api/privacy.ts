// The `configuracao` an application gets at an institution, and its application to records.
import { PERSONAL_ATTRIBUTES, type TPersonalAttribute } from "@/lib/validations/data-api";
import { pseudonymize } from "./pseudonym";

export interface TAttributeConfiguration {
  /** Attributes returned (anonymized ones included), in canonical order. */
  allowed: TPersonalAttribute[];
  /** Subset of `allowed` returned as pseudonyms. */
  anonymized: TPersonalAttribute[];
}

export interface TAccessSettings {
  allowedAttributes: string[];
  anonymizedAttributes: string[];
}

/**
 * The most restrictive combination of several ApplicationAccess settings (a network read covers
 * schools that may have stricter settings of their own): an attribute is allowed only if every
 * setting allows it, and anonymized if any setting anonymizes it. Unknown names are ignored.
 */
export function combineAccessSettings(settings: TAccessSettings[]): TAttributeConfiguration {
  const allowed = PERSONAL_ATTRIBUTES.filter((a) => settings.length > 0 && settings.every((s) => s.allowedAttributes.includes(a)));
  const anonymized = allowed.filter((a) => settings.some((s) => s.anonymizedAttributes.includes(a)));
  return { allowed, anonymized };
}

/** The attributes a configuration changes (dropped or anonymized); the others are kept as stored. */
function attributeActions(configuration: TAttributeConfiguration): { attribute: TPersonalAttribute; action: "drop" | "anonymize" }[] {
  return PERSONAL_ATTRIBUTES.flatMap((attribute): { attribute: TPersonalAttribute; action: "drop" | "anonymize" }[] => {
    if (!configuration.allowed.includes(attribute)) return [{ attribute, action: "drop" }];
    return configuration.anonymized.includes(attribute) ? [{ attribute, action: "anonymize" }] : [];
  });
}

export type TRecordFilter = (record: Record<string, unknown>) => Record<string, unknown>;

/** Pseudonyms of one application, memoized for the lifetime of one filter (one page). */
function pseudonymizer(applicationId: string): (attribute: TPersonalAttribute, raw: string) => string {
  const memo = new Map<string, string>();
  return (attribute, raw) => {
    const memoKey = `${attribute}\0${raw}`;
    let pseudonym = memo.get(memoKey);
    if (pseudonym === undefined) {
      pseudonym = pseudonymize({ applicationId, attribute, value: raw });
      memo.set(memoKey, pseudonym);
    }
    return pseudonym;
  };
}

/**
 * A function that applies the configuration to a record in place: attributes not allowed are
 * removed, anonymized ones replaced by the application's pseudonym (null stays null). Records
 * without personal attributes pass through untouched.
 */
export function recordFilter(configuration: TAttributeConfiguration, applicationId: string): TRecordFilter {
  const actions = attributeActions(configuration);
  const pseudonym = pseudonymizer(applicationId);
  return (record) => {
    for (const { attribute, action } of actions) {
      if (!(attribute in record)) continue;
      const value = record[attribute];
      if (action === "drop") delete record[attribute];
      else if (value !== null && value !== undefined) record[attribute] = pseudonym(attribute, String(value));
    }
    return record;
  };
}

const BACKSLASH = 92;

/** Index just past the JSON string that opens at `start` (a quote), or -1. */
function stringEnd(json: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = json.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let j = quote - 1; json.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Index just past the scalar JSON value at `start` (string, number, true, false, null), or -1. */
function scalarEnd(json: string, start: number): number {
  if (json.charCodeAt(start) === 34) return stringEnd(json, start);
  let end = start;
  while (end < json.length && !",} \n\r\t".includes(json[end]!)) end++;
  return end > start && !"{[".includes(json[start]!) ? end : -1;
}

// A value that opens an object or array: the record is not flat.
const NESTED = /":\s*[[{]/;

/**
 * The same rules for a record still in the JSON text PostgreSQL wrote for its jsonb (the Data
 * API's hot path), without making it an object. PostgreSQL writes `{"key": value, "key": value}`
 * and escapes only quotes, backslashes and control characters. So:
 * - a record without `"cpf"` (say) has no key `cpf` (inside a string value the sequence would be
 *   `\"cpf\"`), and is returned as it came;
 * - in a flat record (every value a scalar, as every snapshot is) a member `"cpf": value` that
 *   starts the object or follows `, ` is that key, and is rewritten or cut out in place;
 * - anything else (a nested value, a \u escape, another layout) is parsed and goes through
 *   `recordFilter`. Every doubt falls back to parsing; none skips a rule.
 */
export function recordTextFilter(configuration: TAttributeConfiguration, applicationId: string): (json: string) => string {
  const actions = attributeActions(configuration).map((a) => ({ ...a, quoted: `"${a.attribute}"` }));
  if (actions.length === 0) return (json) => json;
  const pseudonym = pseudonymizer(applicationId);
  const filter = recordFilter(configuration, applicationId);
  const parsed = (json: string) => JSON.stringify(filter(JSON.parse(json) as Record<string, unknown>));

  return (json) => {
    const escaped = json.includes("\\u");
    if (!escaped && !actions.some((a) => json.includes(a.quoted))) return json;
    if (escaped || !json.startsWith("{") || NESTED.test(json)) return parsed(json);
    // Members to change, as [start, end, replacement], in text order.
    const edits: [number, number, string][] = [];
    for (const { attribute, action, quoted } of actions) {
      const at = json.indexOf(quoted);
      if (at < 0) continue;
      // Exactly one occurrence, as a key in jsonb's layout; anything else is parsed.
      if (json.indexOf(quoted, at + 1) >= 0 || json.slice(at + quoted.length, at + quoted.length + 2) !== ": ") return parsed(json);
      if (at !== 1 && json.slice(at - 2, at) !== ", ") return parsed(json);
      const valueStart = at + quoted.length + 2;
      const valueEnd = scalarEnd(json, valueStart);
      if (valueEnd < 0) return parsed(json);
      const value = json.slice(valueStart, valueEnd);
      if (action === "anonymize") {
        if (value !== "null") edits.push([valueStart, valueEnd, JSON.stringify(pseudonym(attribute, String(JSON.parse(value))))]);
        continue;
      }
      // Drop: cut the member and the separator after it. Cutting the last member leaves the
      // separator before it, which is removed below.
      edits.push([at, json.startsWith(", ", valueEnd) ? valueEnd + 2 : valueEnd, ""]);
    }
    edits.sort((a, b) => a[0] - b[0]);
    let out = "";
    let from = 0;
    for (const [start, end, replacement] of edits) {
      out += json.slice(from, start) + replacement;
      from = end;
    }
    out += json.slice(from);
    return out.endsWith(", }") ? `${out.slice(0, -3)}}` : out;
  };
}
