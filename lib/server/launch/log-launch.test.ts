// Each LTI launch is one row in the institution's access log: the tool, the person, and the names
// of the lis_person_* fields the signed form carried, never their values; the manager's log lists
// it under the tool.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { listDataAccessLogs } from "@/lib/server/management/list-data-access-logs";
import { resolveManagerScope } from "@/lib/server/management/resolve-manager-scope";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { setupTestDatabase } from "@/test/database";
import { buildLaunch } from "./build-launch";
import { createSchool, createTestTool, placeTool, shareWithTool, type TSchool } from "@/test/fixtures/launch";

process.env.HUB_BASE_URL = "https://hub.example.org";
process.env.HUB_SECRET = "launch-log-secret-launch-log-secret-0123";
resetEnvCache();

setupTestDatabase();
let s: TSchool;

beforeAll(async () => {
  s = await createSchool();
});

describe("LTI launches in the institution's access log", () => {
  it("one lti_launch row per launch, naming the lis_person_* fields sent (none when nothing is shared)", async () => {
    const tool = await createTestTool({ title: "Laboratório Virtual" });
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario", "email_usuario"], ["email_usuario"]);
    const launch = await buildLaunch({ placementId: placement.id, profile: s.student });
    const sent = new Map(launch.fields);
    expect(sent.get("lis_person_name_full")).toBe(s.student.name);

    await shareWithTool(s.schoolId, tool.id, []);
    await buildLaunch({ placementId: placement.id, profile: s.teacher });
    await flushAccessLogs();

    const rows = await db().dataAccessLog.findMany({ where: { toolId: tool.id }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.channel, r.toolName, r.applicationId, r.institutionId, r.profileId, [...r.attributes].sort(), r.status])).toEqual([
      ["lti_launch", "Laboratório Virtual", null, s.schoolId, s.student.id, ["lis_person_contact_email_primary", "lis_person_name_full"], 200],
      ["lti_launch", "Laboratório Virtual", null, s.schoolId, s.teacher.id, [], 200],
    ]);
    const text = JSON.stringify(rows);
    for (const value of [s.student.name, s.student.email, sent.get("lis_person_contact_email_primary")!, s.teacher.name]) expect(text).not.toContain(value);

    // The network manager's log lists them under the tool, with the person.
    const manager = await createProfile({ personId: (await createPerson({ name: "Gestora Rede" })).id, institutionId: s.networkId, role: "gestor" });
    const scope = await resolveManagerScope({ personId: manager.personId, profileId: manager.id });
    const listed = await listDataAccessLogs({ scope, institutionId: s.networkId, partner: { kind: "tool", id: tool.id }, channel: "lti_launch", page: 1 });
    expect(listed.items.map((r) => [r.partner, r.person?.name])).toEqual([
      [{ id: tool.id, kind: "tool", name: "Laboratório Virtual", deleted: false }, s.teacher.name],
      [{ id: tool.id, kind: "tool", name: "Laboratório Virtual", deleted: false }, s.student.name],
    ]);
  });
});
