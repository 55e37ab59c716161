import { env } from "@/lib/env";

/**
 * CSRF defence for cookie-authenticated form posts (with SameSite=Lax session cookies): a
 * browser sends `Origin` with every POST, and `Sec-Fetch-Site` besides. The post counts only
 * when it comes from the hub's own pages, as served (`requestOrigin`) or as configured
 * (HUB_BASE_URL). A request that carries neither header did not come from a hub page.
 */
export function isSameOriginPost(headers: Pick<Headers, "get">, requestOrigin: string): boolean {
  const origin = headers.get("origin");
  if (origin) return origin === requestOrigin || origin === new URL(env().HUB_BASE_URL).origin;
  return headers.get("sec-fetch-site") === "same-origin";
}
