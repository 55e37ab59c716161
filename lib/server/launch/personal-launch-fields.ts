import type { LaunchParamsInput } from "@/lib/lti/launch-params";
import { recordFilter, type TAttributeConfiguration } from "@/lib/server/data-api/privacy";

/**
 * The person's name and e-mail as a launch of this tool carries them: the person passes through
 * the Data API's own filter (recordFilter) with the institution's rule for the tool, so an
 * attribute not shared is absent and an anonymized one is the pseudonym keyed by the tool id —
 * the same on every launch, unlinkable by any other tool or application.
 */
export function personalLaunchFields(options: {
  configuration: TAttributeConfiguration;
  toolId: string;
  person: { name: string; email: string | null };
}): Pick<LaunchParamsInput, "personNameFull" | "personEmail"> {
  const record = recordFilter(options.configuration, options.toolId)({ nome_usuario: options.person.name, email_usuario: options.person.email });
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  return { personNameFull: text(record.nome_usuario), personEmail: text(record.email_usuario) };
}

/** The personal attributes an LTI 1.0 launch can carry at all (the others never leave in a launch). */
export const LAUNCH_ATTRIBUTES = ["nome_usuario", "email_usuario"] as const;
