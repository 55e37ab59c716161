/**
 * What may be logged of a failure of openid-client or of the provider: the error's name, code and
 * message, and the provider's own error code (`access_denied`, `invalid_grant`…) when it sent one;
 * never the error's `cause` or the provider's description, which can hold the id token's claims or
 * text of the provider's choosing.
 */
export function describeUpstreamError(error: unknown): { name: string; code?: string; upstreamError?: string; message: string } {
  if (!(error instanceof Error)) return { name: "unknown", message: String(error).slice(0, 200) };
  const { code, error: upstreamError } = error as { code?: unknown; error?: unknown };
  return {
    name: error.name,
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof upstreamError === "string" ? { upstreamError: upstreamError.slice(0, 100) } : {}),
    message: error.message.slice(0, 300),
  };
}
