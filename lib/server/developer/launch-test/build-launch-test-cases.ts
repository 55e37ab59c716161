/**
 * The launches the tester sends: one valid launch and the negative cases a correct tool must
 * refuse (spec, "Tool launch endpoint": Validation 1 and 2, failure = 401). Every case is built
 * and signed with lib/lti, the same code the hub launches with, and each negative case breaks
 * exactly one rule while everything else stays valid — including a fresh nonce and a correct
 * signature — so a refusal can only come from the rule under test.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { buildLaunchParams } from "@/lib/lti/launch-params";
import { signLaunch } from "@/lib/lti/sign-launch";

export type TCaseId =
  | "valid"
  | "replayed_nonce"
  | "bad_signature"
  | "old_timestamp"
  | "future_timestamp"
  | "wrong_lti_version"
  | "wrong_message_type"
  | "missing_resource_link_id"
  | "unknown_consumer_key"
  | "missing_consumer_key";

export interface TLaunchTestCase {
  id: TCaseId;
  label: string;
  description: string;
  expect: "accept" | "refuse";
  fields: Array<[string, string]>;
  /** Meaningful only if that case was accepted (a replay of a refused launch proves nothing). */
  dependsOn?: TCaseId;
}

export interface BuildLaunchTestCasesOptions {
  launchUrl: string;
  consumerKey: string;
  sharedSecret: string;
  /** The hub's base URL: oauth_callback, return URL and instance guid. */
  hubBaseUrl: string;
  /** Unix seconds. */
  now: number;
}

/** Far outside any sensible clock-skew window (the reference tool allows ±300 s). */
export const TIMESTAMP_OFFSET_SECONDS = 3600;

export function buildLaunchTestCases({ launchUrl, consumerKey, sharedSecret, hubBaseUrl, now }: BuildLaunchTestCasesOptions): TLaunchTestCase[] {
  const run = randomBytes(4).toString("hex");
  const params = buildLaunchParams({
    resourceLinkId: `teste-de-lancamento-${run}`,
    resourceLinkTitle: "Teste de lançamento do Hub",
    userId: randomUUID(),
    role: "professor",
    returnUrl: `${hubBaseUrl}/desenvolvedor`,
    toolConsumerInstanceGuid: new URL(hubBaseUrl).host,
    toolConsumerInstanceName: "Hub Educacional (testador de lançamento)",
    // Lets a tool recognise test traffic and skip, say, creating a real session.
    custom: { hub_launch_test: "1" },
  });
  const sign = (overrides: { params?: Record<string, string>; key?: string; secret?: string; timestamp?: number } = {}) =>
    signLaunch({
      launchUrl,
      consumerKey: overrides.key ?? consumerKey,
      consumerSecret: overrides.secret ?? sharedSecret,
      params: overrides.params ?? params,
      callbackUrl: `${hubBaseUrl}/`,
      timestamp: overrides.timestamp ?? now,
    }).fields;

  const valid = sign();
  // The same message signed with another secret: a well-formed signature that does not match.
  const forged = sign({ secret: `${sharedSecret}-errado` });
  const { resource_link_id: _dropped, ...withoutResourceLink } = params;

  return [
    { id: "valid", label: "Lançamento válido", description: "Assinado corretamente, com todos os parâmetros obrigatórios.", expect: "accept", fields: valid },
    {
      id: "replayed_nonce",
      label: "Nonce repetido",
      description: "O mesmo lançamento válido, reenviado idêntico (mesmo oauth_nonce).",
      expect: "refuse",
      fields: valid,
      dependsOn: "valid",
    },
    { id: "bad_signature", label: "Assinatura inválida", description: "oauth_signature calculada com outro segredo.", expect: "refuse", fields: forged },
    {
      id: "old_timestamp",
      label: "Timestamp antigo",
      description: `oauth_timestamp de ${TIMESTAMP_OFFSET_SECONDS / 60} minutos atrás.`,
      expect: "refuse",
      fields: sign({ timestamp: now - TIMESTAMP_OFFSET_SECONDS }),
    },
    {
      id: "future_timestamp",
      label: "Timestamp no futuro",
      description: `oauth_timestamp daqui a ${TIMESTAMP_OFFSET_SECONDS / 60} minutos.`,
      expect: "refuse",
      fields: sign({ timestamp: now + TIMESTAMP_OFFSET_SECONDS }),
    },
    {
      id: "wrong_lti_version",
      label: "lti_version errado",
      description: "lti_version=LTI-2p0 em vez de LTI-1p0.",
      expect: "refuse",
      fields: sign({ params: { ...params, lti_version: "LTI-2p0" } }),
    },
    {
      id: "wrong_message_type",
      label: "lti_message_type errado",
      description: "lti_message_type=ContentItemSelectionRequest em vez de basic-lti-launch-request.",
      expect: "refuse",
      fields: sign({ params: { ...params, lti_message_type: "ContentItemSelectionRequest" } }),
    },
    {
      id: "missing_resource_link_id",
      label: "Sem resource_link_id",
      description: "O parâmetro obrigatório resource_link_id não é enviado.",
      expect: "refuse",
      fields: sign({ params: withoutResourceLink }),
    },
    {
      id: "unknown_consumer_key",
      label: "Consumer key desconhecida",
      description: "oauth_consumer_key que a ferramenta não emitiu (assinado com o segredo correto).",
      expect: "refuse",
      fields: sign({ key: `desconhecida-${run}` }),
    },
    {
      // The contract: without oauth_consumer_key the tool does not show a resource.
      id: "missing_consumer_key",
      label: "Sem oauth_consumer_key",
      description: "Lançamento assinado corretamente, enviado sem o parâmetro oauth_consumer_key.",
      expect: "refuse",
      fields: sign().filter(([name]) => name !== "oauth_consumer_key"),
    },
  ];
}
