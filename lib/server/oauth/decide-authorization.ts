// What the authorization screen does for one request (GET /lti/v1/oauth2/authorize and its
// continuation after sign-in or the profile picker). Routes only turn the outcome into HTTP.
//
//   1. Validate (lib/oauth/authorize-request.ts). Unknown client / unregistered redirect URI →
//      error page; any later failure → redirect to the client with error and state.
//   2. Signed out (or `prompt=login` on the first step) → sign in, then come back to the
//      continuation (/oauth/continuar). With `prompt=none`: redirect with login_required.
//   3. Pick the profile:
//        - `login_hint` naming the current profile, enabled for the application (the hub
//          started the flow from its home page for that profile: OIDC Core §4);
//        - `id_token_hint` naming an enabled profile of the signed-in person (a client renewing
//          a sign-in it already has, OIDC Core §3.1.2.1);
//        both hints name the profile by the application's pairwise id, mapped back here;
//        - on the continuation (the person just signed in or picked), the current profile
//          if it is enabled;
//        - the only profile, if enabled;
//        - otherwise the picker, which shows profiles of institutions that have not enabled
//          the application as unavailable. `prompt=select_account` always shows it first;
//          `prompt=none` gets account_selection_required (or interaction_required when no
//          profile may use the application) instead of any screen.
//   4. Issue the code or tokens and redirect (complete-authorization.ts).
import { env } from "@/lib/env";
import type { AuthorizeRequest } from "@/lib/oauth/authorize-request";
import { OAuthError } from "@/lib/oauth/errors";
import { verifyIdToken } from "@/lib/oauth/jwt";
import { buildRedirect } from "@/lib/oauth/redirect";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { checkAuthorizeRequest, carriedQuery } from "./check-authorize-request";
import { completeAuthorization } from "./complete-authorization";
import { listProfileChoices, type TProfileChoice } from "./list-profile-choices";
import { pairwiseIds, type TPairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { ourTokenVerification } from "./signing-keys";

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

/**
 * An error for the client, at its redirect URI, with its state and our issuer (RFC 6749
 * §4.1.2.1, RFC 9207): a refusal it asked for (prompt=none) or the person's (the picker's Cancel).
 */
export function authorizationErrorRedirect(request: AuthorizeRequest, error: OAuthError): string {
  return buildRedirect(request.redirectUri, { ...error.toJSON(), state: request.state, iss: env().HUB_BASE_URL }, request.responseMode);
}

/**
 * The profile an `id_token_hint` names: one of our id tokens, issued to this client (expired is
 * fine, OIDC Core §3.1.2.1). Undefined when there is no hint; null when it is not one of ours.
 */
async function hintedProfile(request: AuthorizeRequest, ids: TPairwiseIds, now: Date): Promise<string | null | undefined> {
  if (request.idTokenHint === undefined) return undefined;
  const claims = await verifyIdToken(request.idTokenHint, { ...ourTokenVerification(now), allowExpired: true });
  return claims instanceof OAuthError || claims.aud !== request.clientId ? null : ids.toGlobal(claims.sub);
}

function chooseProfile(
  choices: TProfileChoice[],
  session: TSessionRef,
  step: TAuthorizationStep,
  hints: { login?: string; idToken?: string | null },
): string | null {
  const hinted = hints.idToken ? choices.find((c) => c.id === hints.idToken && c.enabled) : undefined;
  if (hinted) return hinted.id;
  const current = choices.find((c) => c.id === session.profileId && c.enabled);
  if (current && (hints.login === current.id || step === "continue")) return current.id;
  const only = choices.length === 1 ? choices[0] : undefined;
  return only?.enabled ? only.id : null;
}

export async function decideAuthorization(options: {
  query: URLSearchParams;
  session: TSessionRef | null;
  step: TAuthorizationStep;
  now?: Date;
}): Promise<TAuthorizationOutcome> {
  const now = options.now ?? new Date();
  const check = await checkAuthorizeRequest({ query: options.query });
  if (check.kind === "error_page") return { kind: "error_page", error: check.error };
  if (check.kind === "redirect_error") return { kind: "redirect", location: check.location };
  const { request } = check;
  const silent = request.prompt.has("none");
  const refuse = (code: OAuthError["code"], description: string): TAuthorizationOutcome => ({
    kind: "redirect",
    location: authorizationErrorRedirect(request, new OAuthError(code, description)),
  });

  const carried = carriedQuery(options.query);
  const reauthenticate = request.prompt.has("login") && options.step === "authorize";
  if (!options.session || reauthenticate) {
    if (silent) return refuse("login_required", "The user is not signed in to the hub");
    const extra = reauthenticate && options.session ? { reauth: "1" } : undefined;
    return { kind: "sign_in", loginUrl: withCallbackUrl("/login", `${CONTINUE_PATH}?${carried}`, extra) };
  }
  const choices = await listProfileChoices({ personId: options.session.personId, application: check.application });
  const ids = await pairwiseIds({ kind: "application", id: check.application.id });
  const hintedProfileId = await hintedProfile(request, ids, now);
  const loginHint = check.params.login_hint === undefined ? undefined : (ids.toGlobal(check.params.login_hint) ?? undefined);
  // OIDC Core §3.1.2.1: a hint naming someone other than the signed-in person cannot be honoured silently.
  if (silent && hintedProfileId !== undefined && !choices.some((c) => c.id === hintedProfileId)) {
    return refuse("login_required", "The signed-in user is not the one named by id_token_hint");
  }
  const forcePicker = request.prompt.has("select_account") && options.step === "authorize";
  const profileId = forcePicker ? null : chooseProfile(choices, options.session, options.step, { login: loginHint, idToken: hintedProfileId });
  if (!profileId) {
    if (!silent) return { kind: "choose_profile", pickerUrl: `${PICKER_PATH}?${carried}` };
    return choices.some((c) => c.enabled)
      ? refuse("account_selection_required", "The user has to choose a profile")
      : refuse("interaction_required", "No profile of this user may use the application");
  }
  const location = await completeAuthorization({ application: check.application, request, profileId, now });
  return { kind: "redirect", location };
}
