/** The client's address as the first proxy saw it, for throttling (not for authorization). */
export function clientIp(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "local";
}
