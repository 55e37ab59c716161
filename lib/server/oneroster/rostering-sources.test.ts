import { describe, expect, it } from "vitest";
import { EVENT_ENTITIES, READ_BY_INSTITUTION, sourceSql, type TSourceName } from "./rostering-sources";

describe("EVENT_ENTITIES", () => {
  it("names, for every source read by institution, exactly the entities its statement reads", () => {
    const sources = (Object.entries(READ_BY_INSTITUTION) as [TSourceName, boolean][]).filter(([, byInstitution]) => byInstitution).map(([name]) => name);
    expect(sources.length).toBeGreaterThan(0);
    for (const name of sources) {
      const read = [...sourceSql(name).matchAll(/e\.entity (?:= '(\w+)'|IN \(([^)]*)\))/g)].flatMap((m) =>
        m[1] ? [m[1]] : m[2]!.split(",").map((entity) => entity.trim().replace(/'/g, "")),
      );
      expect(read.length, name).toBeGreaterThan(0);
      expect([...new Set(read)].sort(), name).toEqual([...(EVENT_ENTITIES[name] ?? [])].sort());
    }
  });
});
