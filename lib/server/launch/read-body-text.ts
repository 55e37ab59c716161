/**
 * The request body as UTF-8 text, or null past `maxBytes`, counted while streaming so a huge or
 * lying Content-Length cannot make the server buffer it.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string | null> {
  if (!request.body) return "";
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
