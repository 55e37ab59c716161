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

/**
 * A function that applies the configuration to a record in place: attributes not allowed are
 * removed, anonymized ones replaced by the application's pseudonym (null stays null). Records
 * without personal attributes pass through untouched.
 */
export function recordFilter(configuration: TAttributeConfiguration, applicationId: string): TRecordFilter {
  const actions = attributeActions(configuration);
  const memo = new Map<string, string>();
  return (record) => {
    for (const { attribute, action } of actions) {
      if (!(attribute in record)) continue;
      const value = record[attribute];
      if (action === "drop") {
        delete record[attribute];
      } else if (value !== null && value !== undefined) {
        const raw = String(value);
        const memoKey = `${attribute}\0${raw}`;
        let pseudonym = memo.get(memoKey);
        if (pseudonym === undefined) {
          pseudonym = pseudonymize({ applicationId, attribute, value: raw });
          memo.set(memoKey, pseudonym);
        }
        record[attribute] = pseudonym;
      }
    }
    return record;
  };
}

/**
 * The same rules for a record still in the JSON text the database wrote (the Data API's hot path).
 * A record with none of the changed attributes as a key is returned as it came, never parsed:
 * in JSON text a key `cpf` always appears as `"cpf"`, and inside a string value that sequence
 * is written `\"cpf\"`, so the check can only err towards parsing a record it need not.
 */
export function recordTextFilter(configuration: TAttributeConfiguration, applicationId: string): (json: string) => string {
  const markers = attributeActions(configuration).map(({ attribute }) => `"${attribute}"`);
  if (markers.length === 0) return (json) => json;
  const filter = recordFilter(configuration, applicationId);
  return (json) => (markers.some((m) => json.includes(m)) ? JSON.stringify(filter(JSON.parse(json) as Record<string, unknown>)) : json);
}
