// What the authorization screen does for one request (GET /lti/v1/oauth2/authorize and its
// continuation after sign-in or the profile picker). Routes only turn the outcome into HTTP.
//
//   1. Validate (lib/oauth/authorize-request.ts). Unknown client / unregistered redirect URI →
//      error page; any later failure → redirect to the client with error and state.
//   2. Signed out → sign in, then come back to the continuation (/oauth/continuar).
//   3. Pick the profile:
//        - `login_hint` naming the current profile, enabled for the application (the hub
//          started the flow from its home page for that profile: OIDC Core §4);
//        - on the continuation (the person just signed in or picked), the current profile
//          if it is enabled;
//        - the only profile, if enabled;
//        - otherwise the picker, which shows profiles of institutions that have not enabled
//          the application as unavailable.
//   4. Issue the code or tokens and redirect (complete-authorization.ts).
import type { OAuthError } from "@/lib/oauth/errors";
import { checkAuthorizeRequest, carriedQuery } from "./check-authorize-request";
import { completeAuthorization } from "./complete-authorization";
import { listProfileChoices, type TProfileChoice } from "./list-profile-choices";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";

export const CONTINUE_PATH = "/oauth/continuar";
export const PICKER_PATH = "/oauth/escolher-perfil";

export interface TSessionRef {
  personId: string;
  /** The profile chosen in the hub session, if any. */
  profileId: string | null;
}

export type TAuthorizationOutcome =
  | { kind: "error_page"; error: OAuthError }
  | { kind: "redirect"; location: string }
  | { kind: "sign_in"; loginUrl: string }
  | { kind: "choose_profile"; pickerUrl: string };

export type TAuthorizationStep = "authorize" | "continue";

function chooseProfile(
  choices: TProfileChoice[],
  session: TSessionRef,
  step: TAuthorizationStep,
  loginHint: string | undefined,
): string | null {
  const current = choices.find((c) => c.id === session.profileId && c.enabled);
  if (current && (loginHint === current.id || step === "continue")) return current.id;
  const only = choices.length === 1 ? choices[0] : undefined;
  return only?.enabled ? only.id : null;
}

export async function decideAuthorization(options: {
  query: URLSearchParams;
  session: TSessionRef | null;
  step: TAuthorizationStep;
  now?: Date;
}): Promise<TAuthorizationOutcome> {
  const check = await checkAuthorizeRequest({ query: options.query });
  if (check.kind === "error_page") return { kind: "error_page", error: check.error };
  if (check.kind === "redirect_error") return { kind: "redirect", location: check.location };

  const carried = carriedQuery(options.query);
  if (!options.session) {
    return { kind: "sign_in", loginUrl: withCallbackUrl("/login", `${CONTINUE_PATH}?${carried}`) };
  }
  const choices = await listProfileChoices({ personId: options.session.personId, application: check.application });
  const profileId = chooseProfile(choices, options.session, options.step, check.params.login_hint);
  if (!profileId) return { kind: "choose_profile", pickerUrl: `${PICKER_PATH}?${carried}` };
  const location = await completeAuthorization({ application: check.application, request: check.request, profileId, now: options.now });
  return { kind: "redirect", location };
}
