// A page read in two statements (queryEventsThenPeople: the events, then their people) is the
// page read in one (queryEvents), usuario records with their people's current values included,
// once `people` settles. The API's pages and the whole feed read this way. PGlite and PostgreSQL.
import { describe, expect, it, vi } from "vitest";
import { database } from "@/lib/server/db/database";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { deleteProfile } from "@/lib/server/school-data/delete-profile";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { ENTITY_NAMES, EVENT_KINDS } from "@/lib/validations/data-api";
import { setupTestDatabase } from "@/test/database";
import { waitForVisibleEvents } from "@/test/fixtures/data-api";
import { syntheticCpf } from "@/prisma/seed/names";
import { queryEvents, queryEventsThenPeople, type TEventFilters } from "./query-events";

setupTestDatabase();

describe("a page in two statements", () => {
  it("equals the page in one statement once its people are looked up, for every limit and cursor", async () => {
    const school = await createInstitution({ name: "Escola das duas leituras", kind: "school" });
    const profiles: { person: { id: string }; profile: { id: string } }[] = [];
    for (let i = 0; i < 6; i++) {
      const person = await createPerson({ name: `Aluna ${i}`, cpf: syntheticCpf(70_000 + i), email: `aluna${i}@example.org` });
      profiles.push({ person, profile: await createProfile({ personId: person.id, institutionId: school.id, role: "aluno" }) });
    }
    // Current values differ from the ones at the time of the events; a deleted profile has none.
    await updatePerson({ personId: profiles[1]!.person.id, changes: { name: "Aluna renomeada" } });
    await deleteProfile({ profileId: profiles[2]!.profile.id });
    await waitForVisibleEvents();

    const filters: TEventFilters = { institutionIds: [school.id], entities: [...ENTITY_NAMES], kinds: [...EVENT_KINDS] };
    for (const limit of [1, 4, 1000]) {
      let after: { txid: string; seq: string } | undefined;
      for (;;) {
        const one = await queryEvents({ filters, after, limit });
        const two = await queryEventsThenPeople({ filters, after, limit });
        await two.people;
        // The horizon is each read's own: with nothing running here it is the snapshot's xmax, which
        // other databases' transactions move, and an xid hub_feed_horizon cannot place lowers it.
        // So two reads' horizons may differ either way; their rows may not.
        expect({ rows: two.rows, hasMore: two.hasMore }).toEqual({ rows: one.rows, hasMore: one.hasMore });
        if (!one.hasMore) break;
        after = { txid: one.rows.at(-1)!.txid, seq: one.rows.at(-1)!.seq };
      }
    }
    const all = await queryEventsThenPeople({ filters, limit: 1000 });
    await all.people;
    const renamed = all.rows.filter((row) => row.entity === "usuario" && JSON.parse(row.record).id === profiles[1]!.profile.id);
    expect(renamed.length).toBeGreaterThan(0);
    for (const row of renamed) expect(JSON.parse(row.record)).toMatchObject({ nome_usuario: "Aluna renomeada" });
  });

  it("keeps both statements prepared: a whole feed runs the same text once per chunk", async () => {
    const school = await createInstitution({ name: "Escola das leituras preparadas", kind: "school" });
    const person = await createPerson({ name: "Aluna preparada", cpf: syntheticCpf(71_000) });
    await createProfile({ personId: person.id, institutionId: school.id, role: "aluno" });
    await waitForVisibleEvents();
    const query = vi.spyOn(database().sql, "query");
    try {
      const page = await queryEventsThenPeople({ filters: { institutionIds: [school.id], entities: ["usuario"], kinds: [...EVENT_KINDS] }, limit: 10 });
      await page.people;
      expect(page.rows).toHaveLength(1);
      // The events' statement and the people's: planned once per connection, not once per chunk.
      expect(query.mock.calls.map((call) => call[2])).toEqual([{ prepared: true }, { prepared: true }]);
    } finally {
      query.mockRestore();
    }
  });
});
