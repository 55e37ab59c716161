import { MAX_RETURN_URL_ENCODED, safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";

export interface TPageAfterSignIn {
  /** True when the person must see the profile picker (`location` is then the picker's address). */
  picker: boolean;
  location: string;
}

/**
 * Where a signed-in person goes next: straight on to `callbackUrl`, or to the profile picker first.
 * The one place the picker's rules live: /perfil applies them when it is opened, and the sign-ins
 * (password and upstream) apply them at once, so a person the picker would only redirect is sent
 * on without that extra request. The callback is taken as a redirect to /perfil would carry it
 * (withCallbackUrl: through safeCallbackUrl, and "/" past MAX_RETURN_URL_ENCODED).
 */
export function choosePageAfterSignIn(options: { callbackUrl: string | null | undefined; profileCount: number; profileChosen: boolean; switching?: boolean }): TPageAfterSignIn {
  const safe = safeCallbackUrl(options.callbackUrl);
  const callbackUrl = encodeURIComponent(safe).length > MAX_RETURN_URL_ENCODED ? "/" : safe;
  const on = { picker: false, location: callbackUrl };
  // The OAuth flow picks the profile on its own screen, which knows which profiles have the
  // application enabled; sending it through this picker first would ask twice.
  if (callbackUrl.startsWith("/oauth/continuar")) return on;
  // Edtech developers may have no school profile: they go where they were headed.
  if (options.profileCount === 0 && callbackUrl !== "/") return on;
  // One profile is chosen at sign-in; the picker is for people with several (or to switch).
  if (options.profileCount === 1 && options.profileChosen && !options.switching) return on;
  return { picker: true, location: withCallbackUrl("/perfil", callbackUrl) };
}
