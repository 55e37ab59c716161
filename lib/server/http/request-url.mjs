// @ts-check
// A request's URL (`req.url`: the path and query as the client sent them, never an absolute URL to
// parse: `new URL("//x", base)` would read "x" as a host) split where its query starts.

/**
 * The path, without the query.
 * @param {string} url
 * @returns {string}
 */
export function pathOf(url) {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The query string, without its "?" ("" when there is none).
 * @param {string} url
 * @returns {string}
 */
export function searchOf(url) {
  const query = url.indexOf("?");
  return query === -1 ? "" : url.slice(query + 1);
}
