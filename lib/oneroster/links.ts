// The paging headers of a collection response. OpenAPI (every collection GET of the 1.2
// Rostering service): header `X-Total-Count`, "The total number of resources that are available
// to be returned"; links `next` ("from offset to offset+limit"), `last` ("from offset to end"),
// `first` ("from first to limit") and `prev` ("from last_offset to last_offset+limit"). They are
// sent as an RFC 8288 `Link` header.

export interface TPageWindow {
  limit: number;
  offset: number;
  /** Records matching the whole query (filter included), not the page. */
  total: number;
}

export interface TPageOffsets {
  first: number;
  last: number;
  prev: number | null;
  next: number | null;
}

/**
 * The offsets each link points to. Pages keep the client's stride: from offset 5 with limit 10
 * the pages start at 5, 15, 25..., so following `next` from any page reaches `last` exactly.
 * - first: always 0.
 * - last: the last page start on that stride below `total` (0 when there is none).
 * - prev: absent on offset 0; past the end it is `last`, so a client that overshot gets back to
 *   real data; otherwise offset - limit, floored at 0.
 * - next: present while offset + limit < total.
 */
export function pageOffsets({ limit, offset, total }: TPageWindow): TPageOffsets {
  const stride = offset % limit;
  const last = total > stride ? stride + Math.floor((total - 1 - stride) / limit) * limit : 0;
  const prev = offset === 0 ? null : offset > last ? last : Math.max(0, offset - limit);
  const next = offset + limit < total ? offset + limit : null;
  return { first: 0, last, prev, next };
}

function pageUrl(base: URL, query: URLSearchParams, limit: number, offset: number): string {
  const params = new URLSearchParams();
  // Every other parameter (filter, sort, orderBy, fields) is kept, so each link names the same
  // query; URLSearchParams percent-encodes `<`, `>` and `,`, which would break the header's syntax.
  for (const [name, value] of query) if (name !== "limit" && name !== "offset") params.append(name, value);
  params.set("limit", String(limit));
  params.set("offset", String(offset));
  const url = new URL(base);
  url.search = params.toString();
  return url.toString();
}

/**
 * The `Link` header value for a page: next, last, first, prev, in the order the binding lists
 * them, each omitted when it does not exist. `baseUrl` is the collection's absolute URL (its own
 * query string, if any, is replaced); `query` is the request's query.
 */
export function linkHeader(baseUrl: string, query: URLSearchParams, window: TPageWindow): string {
  const base = new URL(baseUrl);
  const offsets = pageOffsets(window);
  const links: [string, number | null][] = [
    ["next", offsets.next],
    ["last", offsets.last],
    ["first", offsets.first],
    ["prev", offsets.prev],
  ];
  return relLinks(base, query, window.limit, links);
}

/** `links` (relation, offset or null for none) as a `Link` header value. */
function relLinks(base: URL, query: URLSearchParams, limit: number, links: [string, number | null][]): string {
  return links
    .filter((link): link is [string, number] => link[1] !== null)
    .map(([rel, offset]) => `<${pageUrl(base, query, limit, offset)}>; rel="${rel}"`)
    .join(", ");
}

/**
 * Both paging headers of a collection response. Without a total (`total: null`: counting the
 * matches went past its time, read-rostering.ts), there is no `X-Total-Count` and no `last`;
 * `next` is there when the page is full (`full`), so a client walking `next` ends on a short or
 * empty page.
 */
export function pagingHeaders(
  baseUrl: string,
  query: URLSearchParams,
  window: Omit<TPageWindow, "total"> & { total: number | null; full: boolean },
): { "X-Total-Count"?: string; Link: string } {
  if (window.total !== null) return { "X-Total-Count": String(window.total), Link: linkHeader(baseUrl, query, { ...window, total: window.total }) };
  const base = new URL(baseUrl);
  const { limit, offset } = window;
  const links: [string, number | null][] = [
    ["next", window.full ? offset + limit : null],
    ["first", 0],
    ["prev", offset === 0 ? null : Math.max(0, offset - limit)],
  ];
  return { Link: relLinks(base, query, limit, links) };
}
