// @ts-check

/**
 * What a `res.write(chunk, encoding)` or `res.end(chunk, encoding)` call hands over, as bytes: a
 * string in its encoding (utf8 by default), a Buffer or Uint8Array copied; null when the call
 * carries no chunk (`end()`, `end(callback)`).
 * @param {unknown} chunk
 * @param {unknown} encoding
 * @returns {Buffer | null}
 */
export function bodyChunk(chunk, encoding) {
  if (chunk == null || typeof chunk === "function") return null;
  if (typeof chunk === "string") return Buffer.from(chunk, /** @type {BufferEncoding} */ (typeof encoding === "string" ? encoding : "utf8"));
  return Buffer.from(/** @type {Uint8Array} */ (chunk));
}
