// The `configuracao` an application gets at an institution, and its application to records.
// A rule may differ per role (docs/decisions/015-sharing-rules-per-role.md): every record of
// `usuario` is filtered with the rule of its own `perfil`.
import { PERSONAL_ATTRIBUTES, PROFILE_ROLES, type TConfiguracao, type TPersonalAttribute, type TProfileRole } from "@/lib/validations/data-api";
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

/** A rule row's per-role overrides of its base rule; a role absent follows the base. */
export type TRoleOverrides = Partial<Record<TProfileRole, TAccessSettings>>;

/** A rule row (ApplicationAccess, ToolSharing) as every channel reads it. */
export interface TRuleSettings extends TAccessSettings {
  roleOverrides: TRoleOverrides;
}

/** The configuration each role's records are filtered with. */
export type TRoleConfigurations = Readonly<Record<TProfileRole, TAttributeConfiguration>>;

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");

/**
 * The stored `roleOverrides` JSON (jsonb, parsed or as text). The services write it validated;
 * should a role's entry be malformed anyway, that role shares nothing rather than falling back to
 * a base that may be more open. Unknown roles are ignored.
 */
export function parseRoleOverrides(value: unknown): TRoleOverrides {
  const object: unknown = typeof value === "string" ? JSON.parse(value) : value;
  if (typeof object !== "object" || object === null || Array.isArray(object)) return {};
  const overrides: TRoleOverrides = {};
  for (const role of PROFILE_ROLES) {
    if (!Object.hasOwn(object, role)) continue;
    const entry = (object as Record<string, unknown>)[role];
    const e = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {};
    overrides[role] =
      isStringArray(e.allowedAttributes) && isStringArray(e.anonymizedAttributes)
        ? { allowedAttributes: e.allowedAttributes, anonymizedAttributes: e.anonymizedAttributes }
        : { allowedAttributes: [], anonymizedAttributes: [] };
  }
  return overrides;
}

/** A rule row's columns as both rule queries read them; null when the row is absent (no rule here). */
export function ruleSettingsOf(row: { allowedAttributes: string[] | null; anonymizedAttributes: string[] | null; roleOverrides: unknown }): TRuleSettings | null {
  if (row.allowedAttributes === null) return null;
  return { allowedAttributes: row.allowedAttributes, anonymizedAttributes: row.anonymizedAttributes ?? [], roleOverrides: parseRoleOverrides(row.roleOverrides) };
}

/** The settings one rule row gives one role: the role's override, or the row's base rule. */
export function settingsForRole(row: TRuleSettings, role: TProfileRole): TAccessSettings {
  return row.roleOverrides[role] ?? row;
}

/**
 * Per role, the most restrictive combination of several rule rows (one row: that row's rule for
 * each role). A network-wide read combines the inherited row with every descendant's own row.
 */
export function combineRuleSettings(rows: TRuleSettings[]): TRoleConfigurations {
  return Object.fromEntries(PROFILE_ROLES.map((role) => [role, combineAccessSettings(rows.map((row) => settingsForRole(row, role)))])) as Record<
    TProfileRole,
    TAttributeConfiguration
  >;
}

const sameConfiguration = (a: TAttributeConfiguration, b: TAttributeConfiguration) =>
  a.allowed.join() === b.allowed.join() && a.anonymized.join() === b.anonymized.join();

/** The one configuration every role shares, or null when the rule differs by role. */
export function uniformConfiguration(configurations: TRoleConfigurations): TAttributeConfiguration | null {
  const first = configurations[PROFILE_ROLES[0]];
  return PROFILE_ROLES.every((role) => sameConfiguration(configurations[role], first)) ? first : null;
}

const asSettings = (c: TAttributeConfiguration): TAccessSettings => ({ allowedAttributes: c.allowed, anonymizedAttributes: c.anonymized });

/** The most restrictive configuration of all roles: for a record whose role is not known. */
export function strictestConfiguration(configurations: TRoleConfigurations): TAttributeConfiguration {
  return combineAccessSettings(PROFILE_ROLES.map((role) => asSettings(configurations[role])));
}

/**
 * The attributes a partner may see in one record, and how (THE answer for "what does this
 * partner see of this person"): the rule of the record's `perfil`; a record with no known
 * `perfil` gets the most restrictive of all roles' rules.
 */
export function configurationForRecord(configurations: TRoleConfigurations, record: { perfil?: unknown }): TAttributeConfiguration {
  const role = record.perfil;
  return typeof role === "string" && (PROFILE_ROLES as readonly string[]).includes(role)
    ? configurations[role as TProfileRole]
    : strictestConfiguration(configurations);
}

/**
 * `configuracao.conjuntoDadosUsuario` for a set of per-role rules. The contract's two lists say
 * what may appear: an attribute is "permitido" if some role's records carry it, "anonimizado" if
 * some role's records carry it as a pseudonym. When the roles differ, `porPerfil` gives each
 * role's own lists (docs/data-api.md). With one rule for all roles it is exactly that rule.
 */
export function toConfiguracao(configurations: TRoleConfigurations): TConfiguracao {
  const uniform = uniformConfiguration(configurations);
  if (uniform) return { conjuntoDadosUsuario: { atributosPermitidos: uniform.allowed, atributosAnonimizados: uniform.anonymized } };
  const some = (list: "allowed" | "anonymized") => PERSONAL_ATTRIBUTES.filter((a) => PROFILE_ROLES.some((role) => configurations[role][list].includes(a)));
  return {
    conjuntoDadosUsuario: {
      atributosPermitidos: some("allowed"),
      atributosAnonimizados: some("anonymized"),
      porPerfil: Object.fromEntries(
        PROFILE_ROLES.map((role) => [role, { atributosPermitidos: configurations[role].allowed, atributosAnonimizados: configurations[role].anonymized }]),
      ) as Record<TProfileRole, { atributosPermitidos: TPersonalAttribute[]; atributosAnonimizados: TPersonalAttribute[] }>,
    },
  };
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

/** recordFilter with each record's own role's rule (configurationForRecord). */
export function recordFilterByRole(configurations: TRoleConfigurations, applicationId: string): TRecordFilter {
  const uniform = uniformConfiguration(configurations);
  if (uniform) return recordFilter(uniform, applicationId);
  const filters = new Map(PROFILE_ROLES.map((role) => [role as string, recordFilter(configurations[role], applicationId)]));
  const strictest = recordFilter(strictestConfiguration(configurations), applicationId);
  return (record) => {
    const role = record.perfil;
    return ((typeof role === "string" && filters.get(role)) || strictest)(record);
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

const DOUBT = Symbol("doubt");

/**
 * Where the member with key `quoted` (the key with its quotes) sits in a flat record's text:
 * null when the key does not occur, DOUBT unless it occurs exactly once as a key in jsonb's
 * layout (opening the object or after `, `, followed by `: ` and a scalar).
 */
function memberOf(json: string, quoted: string): { at: number; valueStart: number; valueEnd: number } | null | typeof DOUBT {
  const at = json.indexOf(quoted);
  if (at < 0) return null;
  if (json.indexOf(quoted, at + 1) >= 0 || json.slice(at + quoted.length, at + quoted.length + 2) !== ": ") return DOUBT;
  if (at !== 1 && json.slice(at - 2, at) !== ", ") return DOUBT;
  const valueStart = at + quoted.length + 2;
  const valueEnd = scalarEnd(json, valueStart);
  return valueEnd < 0 ? DOUBT : { at, valueStart, valueEnd };
}

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
      const member = memberOf(json, quoted);
      if (member === null) continue;
      if (member === DOUBT) return parsed(json);
      const { at, valueStart, valueEnd } = member;
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

const PERFIL = '"perfil"';

/**
 * The `perfil` of a record still as text: the string value (a role or not), null when the record
 * has no `perfil` key or a non-string one (both get the strictest rule, as in
 * recordFilterByRole), DOUBT when only parsing can tell. The same reasoning as
 * recordTextFilter's: without a \u escape, a key `perfil` is written `"perfil"`, which inside a
 * string value would be `\"perfil\"`.
 */
function roleInText(json: string): string | null | typeof DOUBT {
  if (json.includes("\\u")) return DOUBT;
  if (!json.includes(PERFIL)) return null;
  if (!json.startsWith("{") || NESTED.test(json)) return DOUBT;
  const member = memberOf(json, PERFIL);
  if (member === null || member === DOUBT) return DOUBT;
  if (json.charCodeAt(member.valueStart) !== 34) return null;
  const value = json.slice(member.valueStart + 1, member.valueEnd - 1);
  return value.includes("\\") ? DOUBT : value;
}

/**
 * recordTextFilter with each record's own role's rule, reading `perfil` from the text (one
 * indexOf on the hot path). With one rule for every role it is recordTextFilter itself.
 */
export function recordTextFilterByRole(configurations: TRoleConfigurations, applicationId: string): (json: string) => string {
  const uniform = uniformConfiguration(configurations);
  if (uniform) return recordTextFilter(uniform, applicationId);
  const filters = new Map(PROFILE_ROLES.map((role) => [role as string, recordTextFilter(configurations[role], applicationId)]));
  const strictest = recordTextFilter(strictestConfiguration(configurations), applicationId);
  const object = recordFilterByRole(configurations, applicationId);
  return (json) => {
    const role = roleInText(json);
    if (role === DOUBT) return JSON.stringify(object(JSON.parse(json) as Record<string, unknown>));
    return ((role !== null && filters.get(role)) || strictest)(json);
  };
}
