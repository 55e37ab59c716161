/**
 * The media type of a Content-Type value (RFC 9110 §8.3.1): the part before any parameter,
 * trimmed and lower-cased (type and subtype are case-insensitive); "" when there is none.
 */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}
