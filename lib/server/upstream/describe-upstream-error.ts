/**
 * What may be logged of a failure of openid-client or of the provider: the error's name, code and
 * message, never its `cause` (which can hold the id token's claims or the provider's answer).
 */
export function describeUpstreamError(error: unknown): { name: string; code?: string; message: string } {
  if (!(error instanceof Error)) return { name: "unknown", message: String(error).slice(0, 200) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, ...(typeof code === "string" ? { code } : {}), message: error.message.slice(0, 300) };
}
