import { metrics } from "@/lib/server/metrics/registry.mjs";
import { logAccess } from "./log-access";

/**
 * Records an LTI launch in the institution's access log: the tool, the person, and the names of
 * the lis_person_* fields the signed form carries (never their values). The profile's institution
 * owns the row (the person's data), so its manager and the network's see it. Off the response
 * path: one insert, not awaited.
 */
export function logLaunch(options: { toolId: string; profile: { id: string; institutionId: string }; fields: ReadonlyArray<readonly [string, string]> }): void {
  const attributes = [...new Set(options.fields.map(([name]) => name).filter((name) => name.startsWith("lis_person_")))];
  metrics().launches.inc({ lti_version: "1.0" });
  logAccess({ channel: "lti_launch", toolId: options.toolId, institutionId: options.profile.institutionId, profileId: options.profile.id, attributes, status: 200 });
}
