import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { setupTestDatabase } from "@/test/database";
import { chooseProfile } from "./choose-profile";

setupTestDatabase();
let f: TManagementFixture;

beforeAll(async () => {
  f = await createManagementFixture();
});

describe("chooseProfile", () => {
  it("chooses one of the person's profiles, keeping the session's other claims", async () => {
    expect(await chooseProfile({ token: { sub: f.school1.studentPersonId, method: "google" }, profileId: f.school1.studentId })).toEqual({ sub: f.school1.studentPersonId, method: "google", profileId: f.school1.studentId });
  });

  it("refuses another person's profile, and a value that is no UUID before the database sees it", async () => {
    const teacherPerson = (await db().profile.findUniqueOrThrow({ where: { id: f.school1.teacherId } })).personId;
    expect(await chooseProfile({ token: { sub: teacherPerson }, profileId: f.school1.studentId })).toBeNull();
    for (const profileId of ["-".repeat(36), "x", `${f.school1.studentId} `]) expect(await chooseProfile({ token: { sub: f.school1.studentPersonId }, profileId })).toBeNull();
  });
});
