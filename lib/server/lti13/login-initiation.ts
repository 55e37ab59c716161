import { env } from "@/lib/env";
import { loginInitiationFields, type TMessageType } from "@/lib/lti13/claims";
import { MESSAGE_HINT_SECONDS, sealMessageHint } from "@/lib/lti13/message-hint";
import type { TBuiltLaunch } from "@/lib/server/launch/built-launch";
import { messageHintKey } from "./message-hint-key";

/** The part of a tool's LTI 1.3 registration a launch needs (read with the placement). */
export interface TLti13LaunchRegistration {
  clientId: string;
  deploymentId: string;
  loginUrl: string;
  targetLinkUri: string;
}

/**
 * Third-party initiated login (LTI Core 1.3 §4.1, Security Framework 1.0 §5.1.1.1): the launch
 * page's auto-submitted form goes to the tool's login URL, carrying no personal data. login_hint
 * is the tool's own id for the profile (the `sub` it will get); lti_message_hint seals what is
 * being opened, for whom, for which client, for five minutes.
 */
export function lti13LoginInitiation(options: {
  placementId: string;
  profileId: string;
  toolTitle: string;
  registration: TLti13LaunchRegistration;
  loginHint: string;
  messageType?: TMessageType;
  targetLinkUri?: string;
  now?: Date;
}): TBuiltLaunch {
  const { registration } = options;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const messageHint = sealMessageHint(
    { t: options.placementId, p: options.profileId, c: registration.clientId, m: options.messageType ?? "LtiResourceLinkRequest", e: nowSeconds + MESSAGE_HINT_SECONDS },
    messageHintKey(),
  );
  return {
    action: registration.loginUrl,
    fields: loginInitiationFields({
      issuer: env().HUB_BASE_URL,
      loginHint: options.loginHint,
      targetLinkUri: options.targetLinkUri ?? registration.targetLinkUri,
      messageHint,
      clientId: registration.clientId,
      deploymentId: registration.deploymentId,
    }),
    toolOrigin: new URL(registration.loginUrl).origin,
    toolTitle: options.toolTitle,
  };
}
