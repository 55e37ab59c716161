import { OAuthError } from "@/lib/oauth/errors";
import { carriedQuery, checkAuthorizeRequest } from "./check-authorize-request";
import { authorizationErrorRedirect, CONTINUE_PATH } from "./decide-authorization";
import { listProfileChoices, type TProfileChoice } from "./list-profile-choices";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";

export type TProfileChoiceScreen =
  | { kind: "error_page"; error: OAuthError }
  | { kind: "redirect"; location: string }
  | { kind: "sign_in"; loginUrl: string }
  | {
      kind: "choose";
      application: { name: string; description: string; edtechName: string };
      choices: TProfileChoice[];
      /** Where the picker goes after switching the session to the chosen profile. */
      continueUrl: string;
      /** Back to the client with access_denied (RFC 6749 §4.1.2.1), state included. */
      cancelUrl: string;
    };

/** What /oauth/escolher-perfil shows: the request is validated again (it arrives by URL). */
export async function prepareProfileChoice(options: {
  query: URLSearchParams;
  personId: string | null;
}): Promise<TProfileChoiceScreen> {
  const check = await checkAuthorizeRequest({ query: options.query });
  if (check.kind === "error_page") return { kind: "error_page", error: check.error };
  if (check.kind === "redirect_error") return { kind: "redirect", location: check.location };
  const continueUrl = `${CONTINUE_PATH}?${carriedQuery(options.query)}`;
  if (!options.personId) return { kind: "sign_in", loginUrl: withCallbackUrl("/login", continueUrl) };

  const { application, request } = check;
  const denied = new OAuthError("access_denied", "The user did not authorize the application");
  return {
    kind: "choose",
    application: { name: application.name, description: application.description, edtechName: application.edtechName },
    choices: await listProfileChoices({ personId: options.personId, application }),
    continueUrl,
    cancelUrl: authorizationErrorRedirect(request, denied),
  };
}
