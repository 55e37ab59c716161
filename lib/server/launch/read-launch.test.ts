// The launch page's one statement reads what its two did: the session's user as getRequestUser
// reads it, and the placement as PLACEMENT_SQL reads it for that profile, in every case the page
// tells apart (no session, no profile chosen, a placement the profile may or may not open).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { sealSession, sessionCookie } from "@/lib/server/auth/session-cookie";
import { db } from "@/lib/server/db/database";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { setupTestDatabase } from "@/test/database";
import { createSchool, createTestTool, placeTool, type TSchool } from "@/test/fixtures/launch";
import { findPlacement } from "./build-launch";
import { readLaunch } from "./read-launch";

process.env.HUB_BASE_URL = "https://hub.example.org";
process.env.HUB_SECRET = "read-launch-test-secret-read-launch-test";
resetEnvCache();

setupTestDatabase();
let s: TSchool;

beforeAll(async () => {
  s = await createSchool();
});

function requestWith(cookieValue: string | undefined) {
  return { cookie: (name: string) => (name === sessionCookie().name ? cookieValue : undefined) };
}

async function sessionOf(profile: TActingProfile | null, personId?: string) {
  const person = personId ?? (await db().profile.findUniqueOrThrow({ where: { id: profile!.id } })).personId;
  return requestWith(await sealSession({ sub: person, profileId: profile?.id ?? null }));
}

describe("readLaunch", () => {
  it("reads the user and the placement as getRequestUser and PLACEMENT_SQL do, for every profile and placement", async () => {
    const tool = await createTestTool();
    const placements = [
      await placeTool({ toolId: tool.id, institutionId: s.schoolId, title: "para todos", customParams: { nivel: 3 } }),
      await placeTool({ toolId: tool.id, institutionId: s.schoolId, roles: ["professor"] }),
      await placeTool({ toolId: tool.id, institutionId: s.schoolId, classId: s.classId }),
    ];
    let usable = 0;
    for (const profile of [s.student, s.teacher, s.guardian, s.otherStudent, s.outsider]) {
      const request = await sessionOf(profile);
      for (const placement of placements) {
        const read = await readLaunch(request, placement.id);
        expect(read.user).toEqual(await getRequestUser(request));
        expect(read.user?.profile?.id).toBe(profile.id);
        const expected = await findPlacement(placement.id, profile);
        expect(read.placement, `${profile.role} ${placement.id}`).toEqual(expected);
        if (expected) usable += 1;
      }
    }
    // Each placement is usable by some profiles and not by others: both branches were compared.
    expect(usable).toBeGreaterThan(3);
    expect(usable).toBeLessThan(15);
  });

  it("no placement without a chosen profile, for an unknown or malformed id, or without a session", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const person = (await db().profile.findUniqueOrThrow({ where: { id: s.student.id } })).personId;

    const noProfile = await readLaunch(await sessionOf(null, person), placement.id);
    expect(noProfile.user).toMatchObject({ personId: person, profile: null });
    expect(noProfile.placement).toBeNull();

    const student = await sessionOf(s.student);
    expect((await readLaunch(student, randomUUID())).placement).toBeNull();
    expect(await readLaunch(student, "not-a-uuid")).toMatchObject({ user: { personId: person }, placement: null });
    expect((await readLaunch(student, placement.id)).placement?.id).toBe(placement.id);

    expect(await readLaunch(requestWith(undefined), placement.id)).toEqual({ user: null, placement: null });
    expect(await readLaunch(requestWith("tampered"), placement.id)).toEqual({ user: null, placement: null });
    expect(await readLaunch(await sessionOf(s.student, randomUUID()), placement.id)).toEqual({ user: null, placement: null });
  });
});
