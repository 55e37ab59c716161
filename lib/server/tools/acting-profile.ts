import type { Role } from "@/lib/generated/prisma/client";

/** The profile a page or launch acts as (the session's chosen profile). */
export interface TActingProfile {
  id: string;
  role: Role;
  institutionId: string;
}
