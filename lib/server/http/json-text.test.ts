import { describe, expect, it } from "vitest";
import { jsonInChunks } from "./json-text";

async function chunksOf(value: unknown): Promise<string[]> {
  const chunks: string[] = [];
  const reader = jsonInChunks(value).stream().getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(Buffer.from(next.value).toString("utf8"));
  return chunks;
}

describe("jsonInChunks", () => {
  it("writes a page of many objects a hundred at a time, the same bytes as JSON.stringify", async () => {
    const page = { users: Array.from({ length: 250 }, (_, i) => ({ sourcedId: `u${i}`, name: i % 7 === 0 ? 'Ana "A" \u00e9' : null, skip: undefined, agents: [] })) };
    const chunks = await chunksOf(page);
    // The opening, three chunks of elements (100, 100, 50), the closing.
    expect(chunks).toHaveLength(5);
    expect(chunks.join("")).toBe(JSON.stringify(page));
  });

  it("writes anything else in one chunk", async () => {
    for (const value of [{ user: { sourcedId: "u1" } }, { users: [{ a: 1 }] }, { a: [1], b: 2 }, [1, 2, 3], { imsx_codeMajor: "failure" }]) {
      const chunks = await chunksOf(value);
      expect(chunks).toEqual([JSON.stringify(value)]);
    }
  });

  it("writes an empty page as JSON.stringify does", async () => {
    expect((await chunksOf({ users: [] })).join("")).toBe('{"users":[]}');
  });
});
