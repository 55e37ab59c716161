import { describe, expect, it } from "vitest";
import { linkHeader, pageOffsets, pagingHeaders } from "./links";

const BASE = "https://hub.example/ims/oneroster/rostering/v1p2/users";

/** rel → { limit, offset, other params } of a Link header, parsed back. */
function links(header: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const part of header.split(", ")) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    expect(match, part).not.toBeNull();
    const url = new URL(match![1]!);
    expect(`${url.origin}${url.pathname}`).toBe(BASE);
    out[match![2]!] = Object.fromEntries(url.searchParams);
  }
  return out;
}

describe("Link header", () => {
  it("on the first page: next, last and first, no prev", () => {
    const header = linkHeader(BASE, new URLSearchParams("limit=10"), { limit: 10, offset: 0, total: 35 });
    expect(header).toBe(
      `<${BASE}?limit=10&offset=10>; rel="next", <${BASE}?limit=10&offset=30>; rel="last", <${BASE}?limit=10&offset=0>; rel="first"`,
    );
  });

  it("on a middle page: all four", () => {
    expect(pageOffsets({ limit: 10, offset: 10, total: 35 })).toEqual({ first: 0, last: 30, prev: 0, next: 20 });
    expect(Object.keys(links(linkHeader(BASE, new URLSearchParams(), { limit: 10, offset: 10, total: 35 })))).toEqual([
      "next",
      "last",
      "first",
      "prev",
    ]);
  });

  it("on the last page: no next", () => {
    expect(pageOffsets({ limit: 10, offset: 30, total: 35 })).toEqual({ first: 0, last: 30, prev: 20, next: null });
  });

  it("when the total is a multiple of the limit, last is the final full page", () => {
    expect(pageOffsets({ limit: 10, offset: 0, total: 30 })).toEqual({ first: 0, last: 20, prev: null, next: 10 });
    expect(pageOffsets({ limit: 10, offset: 20, total: 30 })).toEqual({ first: 0, last: 20, prev: 10, next: null });
  });

  it("on an empty result: first and last at 0, nothing else", () => {
    expect(pageOffsets({ limit: 100, offset: 0, total: 0 })).toEqual({ first: 0, last: 0, prev: null, next: null });
    expect(Object.keys(links(linkHeader(BASE, new URLSearchParams(), { limit: 100, offset: 0, total: 0 })))).toEqual(["last", "first"]);
  });

  it("past the end: prev leads back to the last page", () => {
    expect(pageOffsets({ limit: 10, offset: 50, total: 35 })).toEqual({ first: 0, last: 30, prev: 30, next: null });
    expect(pageOffsets({ limit: 10, offset: 50, total: 0 })).toEqual({ first: 0, last: 0, prev: 0, next: null });
  });

  it("keeps the client's stride when the offset is not a multiple of the limit", () => {
    expect(pageOffsets({ limit: 10, offset: 5, total: 35 })).toEqual({ first: 0, last: 25, prev: 0, next: 15 });
    expect(pageOffsets({ limit: 10, offset: 15, total: 35 })).toEqual({ first: 0, last: 25, prev: 5, next: 25 });
  });

  it("walks every record exactly once by following next from first", () => {
    for (const [limit, total] of [
      [10, 35],
      [10, 30],
      [1, 3],
      [100, 0],
      [7, 100],
    ] as const) {
      const seen: number[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        for (let i = offset; i < Math.min(offset + limit, total); i++) seen.push(i);
        const page = pageOffsets({ limit, offset, total });
        if (page.next === null) expect(offset).toBe(page.last);
        offset = page.next;
      }
      expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
    }
  });

  it("keeps the other query parameters, encoded so the header stays parseable", () => {
    const query = new URLSearchParams();
    query.set("filter", "familyName='O''Brien, <x>' AND status='active'");
    query.set("sort", "familyName");
    query.set("orderBy", "desc");
    query.append("fields", "sourcedId");
    query.append("fields", "givenName");
    query.set("limit", "5");
    query.set("offset", "5");
    const parsed = links(linkHeader(BASE, query, { limit: 5, offset: 5, total: 12 }));
    expect(parsed.next).toEqual({
      filter: "familyName='O''Brien, <x>' AND status='active'",
      sort: "familyName",
      orderBy: "desc",
      fields: "givenName",
      limit: "5",
      offset: "10",
    });
    const header = linkHeader(BASE, query, { limit: 5, offset: 5, total: 12 });
    expect(new URL(/<([^>]+)>/.exec(header)![1]!).searchParams.getAll("fields")).toEqual(["sourcedId", "givenName"]);
  });

  it("uses the effective limit, not the one requested", () => {
    const parsed = links(linkHeader(BASE, new URLSearchParams("limit=99999"), { limit: 1000, offset: 0, total: 2500 }));
    expect(parsed.next).toEqual({ limit: "1000", offset: "1000" });
    expect(parsed.last).toEqual({ limit: "1000", offset: "2000" });
  });

  it("replaces a query string already on the base URL", () => {
    expect(linkHeader(`${BASE}?stale=1`, new URLSearchParams(), { limit: 10, offset: 0, total: 5 })).not.toContain("stale");
  });

  it("sends X-Total-Count with the Link header", () => {
    expect(pagingHeaders(BASE, new URLSearchParams(), { limit: 10, offset: 0, total: 35, full: true })).toEqual({
      "X-Total-Count": "35",
      Link: linkHeader(BASE, new URLSearchParams(), { limit: 10, offset: 0, total: 35 }),
    });
  });

  it("without a total: no X-Total-Count and no last; next while the page is full", () => {
    const full = pagingHeaders(BASE, new URLSearchParams("filter=x"), { limit: 10, offset: 20, total: null, full: true });
    expect(full["X-Total-Count"]).toBeUndefined();
    const parsed = links(full.Link);
    expect(Object.keys(parsed)).toEqual(["next", "first", "prev"]);
    expect(parsed.next).toEqual({ filter: "x", limit: "10", offset: "30" });
    expect(parsed.prev).toEqual({ filter: "x", limit: "10", offset: "10" });
    expect(Object.keys(links(pagingHeaders(BASE, new URLSearchParams(), { limit: 10, offset: 0, total: null, full: false }).Link))).toEqual(["first"]);
  });
});
