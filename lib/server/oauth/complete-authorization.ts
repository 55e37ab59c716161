import { env } from "@/lib/env";
import type { AuthorizeRequest } from "@/lib/oauth/authorize-request";
import { buildRedirect } from "@/lib/oauth/redirect";
import { issueCode } from "./issue-code";
import { logIdTokenIssued } from "@/lib/server/audit/log-id-token";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { issueTokens } from "./issue-tokens";

/**
 * Issues what the request asked for, for the chosen profile, and returns the redirect back to the
 * client: `code` in the query (RFC 6749 §4.1.2) or the tokens in the fragment (§4.2.2) unless
 * response_mode says otherwise, always with `user_id` (the profile as the spec requires, in the
 * application's pairwise id, the `sub` of its tokens),
 * `state` unchanged and `iss` (RFC 9207, so a client talking to several servers can tell which
 * one answered).
 */
export async function completeAuthorization(options: {
  application: { id: string; clientId: string };
  request: AuthorizeRequest;
  profileId: string;
  now?: Date;
}): Promise<string> {
  const { application, request, profileId } = options;
  const now = options.now ?? new Date();
  const userId = (await pairwiseIds({ kind: "application", id: application.id })).toPartner(profileId);
  const common = { user_id: userId, state: request.state, iss: env().HUB_BASE_URL };
  if (request.responseTypes.includes("code")) {
    const code = await issueCode({ application, request, profileId, now });
    return buildRedirect(request.redirectUri, { code, ...common }, request.responseMode);
  }
  const wantsAccessToken = request.responseTypes.includes("access_token");
  const tokens = await issueTokens({
    application, profileId, scope: request.scope, nonce: request.nonce, now,
    accessToken: wantsAccessToken, idToken: request.responseTypes.includes("id_token"),
  });
  if (tokens.idToken) logIdTokenIssued({ applicationId: application.id, profileId });
  return buildRedirect(
    request.redirectUri,
    {
      access_token: tokens.accessToken,
      token_type: wantsAccessToken ? "Bearer" : undefined,
      expires_in: wantsAccessToken ? String(tokens.expiresIn) : undefined,
      scope: wantsAccessToken ? tokens.scope : undefined,
      id_token: tokens.idToken,
      ...common,
    },
    request.responseMode,
  );
}
