import type { Role } from "@/lib/generated/prisma/client";
import { listProfiles } from "@/lib/server/auth/list-profiles";
import { resolveApplicationAccess } from "./resolve-application-access";

export interface TProfileChoice {
  id: string;
  role: Role;
  institution: { id: string; name: string };
  /** False when the profile's institution has not enabled the application (shown as unavailable). */
  enabled: boolean;
}

/** The person's profiles, each marked with whether the application may receive it. */
export async function listProfileChoices(options: {
  personId: string;
  application: { id: string; edtechId: string };
}): Promise<TProfileChoice[]> {
  const profiles = await listProfiles({ personId: options.personId });
  // A person has a handful of profiles: one small query each keeps the rule in one place.
  return Promise.all(
    profiles.map(async (p) => {
      const access = await resolveApplicationAccess({ institutionId: p.institution.id, application: options.application, role: p.role });
      return { id: p.id, role: p.role, institution: { id: p.institution.id, name: p.institution.name }, enabled: access.enabled };
    }),
  );
}
