// Pairwise ids inside Data API records, rewritten in the JSON text (the hot path never parses a
// record: read-data-page.ts). Which ids are personal is decided here, once for every channel
// that shows records (the Data API and /gestao's preview).
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
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

// A member `"key": "uuid"` (jsonb's layout) or `"key":"uuid"` (JSON.stringify's). In JSON text a
// quote inside a string is escaped, so `"id":` can only be a key; records are flat objects.
const MEMBER = new RegExp(`"(?:${PERSON_ID_KEYS.join("|")})": ?"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"`, "g");

export interface TPersonEvent {
  eventId: string;
  /** The record's JSON text, after the attribute rules. */
  record: string;
}

/**
 * The events' ids and the person ids inside their records, as `ids`' partner sees them. All the
 * ids of the batch are translated together (one cipher call per round), each distinct id once.
 */
export function rewritePersonEvents(ids: TPairwiseIds, events: readonly TPersonEvent[]): TPersonEvent[] {
  const distinct = new Map<string, number>();
  const order: string[] = [];
  const note = (id: string) => {
    const key = id.toLowerCase();
    if (!distinct.has(key)) {
      distinct.set(key, order.length);
      order.push(key);
    }
    return key;
  };
  // Per event: its id, then [start, end, id] of each member value to replace.
  const found = events.map((event) => {
    const edits: [number, number, string][] = [];
    for (const match of event.record.matchAll(MEMBER)) {
      const value = match[1]!;
      const start = match.index + match[0].length - value.length - 1;
      edits.push([start, start + value.length, note(value)]);
    }
    return { eventId: note(event.eventId), edits };
  });
  const translated = ids.toPartnerMany(order);
  const partnerId = (key: string) => translated[distinct.get(key)!]!;
  return events.map((event, i) => {
    const { eventId, edits } = found[i]!;
    if (edits.length === 0) return { eventId: partnerId(eventId), record: event.record };
    let out = "";
    let from = 0;
    for (const [start, end, key] of edits) {
      out += event.record.slice(from, start) + partnerId(key);
      from = end;
    }
    return { eventId: partnerId(eventId), record: out + event.record.slice(from) };
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
