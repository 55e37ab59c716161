// Test helpers for pairwise ids: tests written with the hub's global ids translate what they send
// and what they read for one partner. The tests of the translation itself (pairwise-ids.test.ts)
// do not use these.
import { pairwiseIds, type TPartnerRef } from "./pairwise-ids";
import { PERSON_ENTITIES, PERSON_ID_KEYS } from "./pairwise-records";
import type { TEntityName } from "@/lib/validations/data-api";

export const applicationPartner = (id: string): TPartnerRef => ({ kind: "application", id });
export const toolPartner = (id: string): TPartnerRef => ({ kind: "tool", id });

/** `partner`'s id for a global id. */
export async function partnerIdOf(partner: TPartnerRef, globalId: string): Promise<string> {
  return (await pairwiseIds(partner)).toPartner(globalId);
}

/** The global id behind an id `partner` received (null when it is not a UUID). */
export async function globalIdOf(partner: TPartnerRef, partnerId: string): Promise<string | null> {
  return (await pairwiseIds(partner)).toGlobal(partnerId);
}

type TEvent = { id: string; registro: Record<string, unknown> };

/** A Data API body read by `applicationId`, with its person ids mapped back to global ids (in place). */
export async function withGlobalIds<T extends { dados?: Partial<Record<string, TEvent[]>> }>(applicationId: string, body: T): Promise<T> {
  const ids = await pairwiseIds(applicationPartner(applicationId));
  for (const [entity, events] of Object.entries(body.dados ?? {})) {
    if (!PERSON_ENTITIES.has(entity as TEntityName)) continue;
    for (const event of events ?? []) {
      event.id = ids.toGlobal(event.id) ?? event.id;
      for (const key of PERSON_ID_KEYS) {
        const value = event.registro[key];
        if (typeof value === "string") event.registro[key] = ids.toGlobal(value) ?? value;
      }
    }
  }
  return body;
}
