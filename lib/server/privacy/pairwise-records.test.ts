import { describe, expect, it } from "vitest";
import { UuidPermutation } from "@/lib/server/crypto/uuid-permutation";
import { rewritePersonEvents } from "./pairwise-records";
import type { TPairwiseIds } from "./pairwise-ids";

const permutation = new UuidPermutation(Buffer.alloc(32, 7));
const image = (id: string) => permutation.forward([id.toLowerCase()])[0]!;
let cipherBatches = 0;
const ids: TPairwiseIds = {
  partner: { kind: "application", id: "00000000-0000-4000-8000-000000000001" },
  toPartner: image,
  toPartnerMany: (globalIds) => {
    cipherBatches++;
    return permutation.forward(globalIds);
  },
  toGlobal: (partnerId) => permutation.inverse([partnerId])[0]!,
};

const STUDENT = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const LINK_A = "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d";
const LINK_B = "1b2c3d4e-5f6a-4b7c-9d8e-9f0a1b2c3d4e";
const EVENT_A = "2c3d4e5f-6a7b-4c8d-ae9f-0a1b2c3d4e5f";
const EVENT_B = "3d4e5f6a-7b8c-4d9e-bf0a-1b2c3d4e5f6a";
const CLASS = "4e5f6a7b-8c9d-4eaf-8b1c-2d3e4f5a6b7c";

describe("rewritePersonEvents", () => {
  it("rewrites the event ids and the person ids of each record where they lie, and nothing else", () => {
    const [event] = rewritePersonEvents(ids, "turmaAluno", [
      { eventId: EVENT_A, record: `{"id": "${LINK_A}", "alunoId": "${STUDENT}", "turmaId": "${CLASS}", "codigoPeriodo": "2026"}` },
    ]);
    expect(event).toEqual({
      eventId: image(EVENT_A),
      record: `{"id": "${image(LINK_A)}", "alunoId": "${image(STUDENT)}", "turmaId": "${CLASS}", "codigoPeriodo": "2026"}`,
    });
  });

  it("an id that appears twice in a batch, in either case or layout, gets the same image each time", () => {
    cipherBatches = 0;
    const events = rewritePersonEvents(ids, "turmaAluno", [
      { eventId: EVENT_A, record: `{"id": "${LINK_A}", "alunoId": "${STUDENT}"}` },
      { eventId: EVENT_B, record: `{"id":"${LINK_B}","alunoId":"${STUDENT.toUpperCase()}"}` },
    ]);
    expect(events.map((e) => JSON.parse(e.record) as { alunoId: string }).map((r) => r.alunoId)).toEqual([image(STUDENT), image(STUDENT)]);
    expect(events[1]!.record).toBe(`{"id":"${image(LINK_B)}","alunoId":"${image(STUDENT)}"}`);
    // All the batch's ids through the cipher at once.
    expect(cipherBatches).toBe(1);
  });

  it("leaves a record whose members are not UUIDs as it came", () => {
    const record = `{"id": "not-a-uuid", "alunoId": null}`;
    expect(rewritePersonEvents(ids, "turmaAluno", [{ eventId: EVENT_A, record }])).toEqual([{ eventId: image(EVENT_A), record }]);
  });
});
