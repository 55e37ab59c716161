import { describe, expect, it } from "vitest";
import { buildLaunchParams, LIS_ROLES, type LaunchParamsInput, type RoleName } from "./launch-params";

const base: LaunchParamsInput = {
  resourceLinkId: "placement-1",
  resourceLinkTitle: "Frações",
  userId: "profile-uuid",
  role: "aluno",
  returnUrl: "https://hub.example.com/galeria",
  toolConsumerInstanceGuid: "hub.example.com",
  toolConsumerInstanceName: "Hub Escolar",
};

describe("buildLaunchParams", () => {
  it("sets the required LTI 1.0 message fields and the hub's presentation fields", () => {
    expect(buildLaunchParams(base)).toEqual({
      lti_message_type: "basic-lti-launch-request",
      lti_version: "LTI-1p0",
      resource_link_id: "placement-1",
      resource_link_title: "Frações",
      user_id: "profile-uuid",
      roles: "urn:lti:role:ims/lis/Learner",
      launch_presentation_locale: "pt-BR",
      launch_presentation_return_url: "https://hub.example.com/galeria",
      tool_consumer_instance_guid: "hub.example.com",
      tool_consumer_instance_name: "Hub Escolar",
    });
  });

  it.each<[RoleName, string]>([
    ["aluno", "urn:lti:role:ims/lis/Learner"],
    ["professor", "urn:lti:role:ims/lis/Instructor"],
    ["responsavel", "urn:lti:role:ims/lis/Mentor"],
    ["gestor", "urn:lti:role:ims/lis/Administrator"],
  ])("maps role %s to %s", (role, urn) => {
    expect(LIS_ROLES[role]).toBe(urn);
    expect(buildLaunchParams({ ...base, role }).roles).toBe(urn);
  });

  it("sends context_id/title/label when a context is given", () => {
    const params = buildLaunchParams({ ...base, context: { id: "class-9", title: "7º ano B", label: "7B" } });
    expect(params.context_id).toBe("class-9");
    expect(params.context_title).toBe("7º ano B");
    expect(params.context_label).toBe("7B");
  });

  it("sends no context fields without a context", () => {
    const names = Object.keys(buildLaunchParams(base));
    expect(names.filter((name) => name.startsWith("context_"))).toEqual([]);
  });

  it("normalises custom parameter names: lowercase, non [a-z0-9] to _", () => {
    const params = buildLaunchParams({ ...base, custom: { "Chapter-Name": "3", "nível.2": "x", plain: "y" } });
    expect(params.custom_chapter_name).toBe("3");
    expect(params.custom_n_vel_2).toBe("x");
    expect(params.custom_plain).toBe("y");
  });

  it("refuses custom names that normalise to the same parameter", () => {
    expect(() => buildLaunchParams({ ...base, custom: { "a-b": "1", a_b: "2" } })).toThrow(/custom_a_b/);
  });

  it("leaves out personal fields unless given", () => {
    const names = Object.keys(buildLaunchParams(base));
    expect(names).not.toContain("lis_person_name_full");
    expect(names).not.toContain("lis_person_contact_email_primary");
  });

  it("sends personal fields when given", () => {
    const params = buildLaunchParams({ ...base, personNameFull: "Ana Souza", personEmail: "ana@escola.example" });
    expect(params.lis_person_name_full).toBe("Ana Souza");
    expect(params.lis_person_contact_email_primary).toBe("ana@escola.example");
  });
});
