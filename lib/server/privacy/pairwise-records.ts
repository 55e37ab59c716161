// Pairwise ids inside Data API records, rewritten in the JSON text (the hot path never parses a
// record: read-data-page.ts). Which ids are personal is decided here, once for every channel
// that shows records (the Data API and /gestao's preview).
import { isUuidAt, isUuidText } from "@/lib/server/crypto/uuid-permutation";
import type { TEntityName } from "@/lib/validations/data-api";
import type { TPairwiseIds } from "./pairwise-ids";

/**
 * Entities whose records (and events) are about people: the person and profile itself and the
 * links that put a person in a class or next to another person. Schools, classes, subjects and
 * periods keep their global ids: they name no one, and partners share them by design.
 */
export const PERSON_ENTITIES: ReadonlySet<TEntityName> = new Set<TEntityName>(["usuario", "turmaAluno", "responsavelAluno", "disciplinaProfessor"]);

/** The members of a person entity's record that hold a person's, profile's or link's id. */
export const PERSON_ID_KEYS = ["id", "pessoaId", "alunoId", "professorId", "responsavelId"] as const;

/** Per entity, the members that hold person ids (its record schema in lib/validations/data-api.ts). */
const KEYS_OF: Partial<Record<TEntityName, readonly (typeof PERSON_ID_KEYS)[number][]>> = {
  usuario: ["id", "pessoaId"],
  turmaAluno: ["id", "alunoId"],
  responsavelAluno: ["id", "alunoId", "responsavelId"],
  disciplinaProfessor: ["id", "professorId"],
};

// A member `"key": "` (jsonb's layout) or `"key":"` (JSON.stringify's, after a parse in the
// attribute filter). In JSON text a quote inside a string is escaped, so these can only be keys;
// records are flat objects, so each key appears once.
const OPENINGS = new Map(PERSON_ID_KEYS.map((key) => [key, [`"${key}": "`, `"${key}":"`] as const]));

const QUOTE = 34;

/** Where the UUID value of `key` starts in `record`, or -1. */
function valueStart(record: string, key: (typeof PERSON_ID_KEYS)[number]): number {
  const [spaced, compact] = OPENINGS.get(key)!;
  let at = record.indexOf(spaced);
  let start = at + spaced.length;
  if (at < 0) {
    at = record.indexOf(compact);
    start = at + compact.length;
  }
  if (at < 0) return -1;
  // The closing quote, then 8-4-4-4-12 hex digits where they lie (no slice).
  return record.charCodeAt(start + 36) === QUOTE && isUuidAt(record, start) ? start : -1;
}

export interface TPersonEvent {
  eventId: string;
  /** The record's JSON text, after the attribute rules. */
  record: string;
}

/**
 * The events' ids and the person ids inside their records (events of `entity`, one of
 * PERSON_ENTITIES), as `ids`' partner sees them. All the ids of the batch are translated together
 * (one cipher call per round).
 */
export function rewritePersonEvents(ids: TPairwiseIds, entity: TEntityName, events: readonly TPersonEvent[]): TPersonEvent[] {
  const keys = KEYS_OF[entity] ?? [];
  // Every id in order of appearance, repeats included: the permutation reads hex in either case and
  // costs less per id than looking an id up in a map (ids seldom repeat within a batch).
  const order: string[] = [];
  const note = (id: string): number => order.push(id) - 1;
  // Per event: its id's index, then (start, index) of each member value to replace, in text order.
  const found = events.map((event) => {
    const edits: [number, number][] = [];
    for (const key of keys) {
      const start = valueStart(event.record, key);
      if (start >= 0) edits.push([start, note(event.record.slice(start, start + 36))]);
    }
    if (edits.length > 1) edits.sort((a, b) => a[0] - b[0]);
    return { eventId: note(event.eventId), edits };
  });
  const translated = ids.toPartnerMany(order);
  return events.map((event, i) => {
    const { eventId, edits } = found[i]!;
    let out = "";
    let from = 0;
    for (const [start, index] of edits) {
      out += event.record.slice(from, start) + translated[index]!;
      from = start + 36;
    }
    return { eventId: translated[eventId]!, record: from === 0 ? event.record : out + event.record.slice(from) };
  });
}

/** The same for a record as an object (previews): its person id members, translated. */
export function rewritePersonRecord<T extends Record<string, unknown>>(ids: TPairwiseIds, record: T): T {
  const out: Record<string, unknown> = { ...record };
  for (const key of PERSON_ID_KEYS) {
    const value = out[key];
    if (typeof value === "string" && isUuidText(value)) out[key] = ids.toPartner(value.toLowerCase());
  }
  return out as T;
}
