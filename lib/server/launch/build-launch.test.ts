import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { verifyLaunch } from "@/lib/lti/verify-launch";
import { pseudonymize } from "@/lib/server/data-api/pseudonym";
import { setupTestDatabase } from "@/test/database";
import { buildLaunch, LAUNCH_REFUSED, type TBuiltLaunch } from "./build-launch";
import { createSchool, createTestTool, placeTool, shareWithTool, type TSchool } from "@/test/fixtures/launch";
import { partnerIdOf, toolPartner } from "@/test/fixtures/pairwise";

process.env.HUB_BASE_URL = "https://hub.example.org";
process.env.HUB_SECRET = "launch-test-secret-launch-test-secret";
resetEnvCache();

setupTestDatabase();
let s: TSchool;

beforeAll(async () => {
  s = await createSchool();
});

const fieldsOf = (launch: TBuiltLaunch) => new Map(launch.fields);

async function expectNotFound(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("not_found");
}

/** Verifies as the tool would: its own secret, its own nonce store. */
async function verifyAsTool(launch: TBuiltLaunch, secret: string, consumerKey: string) {
  const seen = new Set<string>();
  return verifyLaunch(
    { method: "POST", url: launch.action, fields: launch.fields },
    {
      now: () => Math.floor(Date.now() / 1000),
      lookupSecret: async (key) => (key === consumerKey ? secret : null),
      rememberNonce: async (key, nonce) => !seen.has(`${key} ${nonce}`) && Boolean(seen.add(`${key} ${nonce}`)),
    },
  );
}

describe("who may launch a placement (anything else is not_found, never a signed form)", () => {
  it("a placement for all roles: every profile of the institution, no one from another institution", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    for (const profile of [s.student, s.teacher, s.guardian, s.otherStudent]) {
      await expect(buildLaunch({ placementId: placement.id, profile })).resolves.toMatchObject({ action: tool.launchUrl });
    }
    await expectNotFound(buildLaunch({ placementId: placement.id, profile: s.outsider }));
  });

  it("a role-restricted placement: only the listed roles", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId, roles: ["professor"] });
    await expect(buildLaunch({ placementId: placement.id, profile: s.teacher })).resolves.toBeDefined();
    await expectNotFound(buildLaunch({ placementId: placement.id, profile: s.student }));
    await expectNotFound(buildLaunch({ placementId: placement.id, profile: s.guardian }));
  });

  it("a class placement: the class's enrolled students and assigned teachers only", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId, classId: s.classId });
    await expect(buildLaunch({ placementId: placement.id, profile: s.student })).resolves.toBeDefined();
    await expect(buildLaunch({ placementId: placement.id, profile: s.teacher })).resolves.toBeDefined();
    await expectNotFound(buildLaunch({ placementId: placement.id, profile: s.otherStudent }));
    await expectNotFound(buildLaunch({ placementId: placement.id, profile: s.guardian }));
  });

  it("a class placement restricted to students: the teacher of the class is refused", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId, classId: s.classId, roles: ["aluno"] });
    await expect(buildLaunch({ placementId: placement.id, profile: s.student })).resolves.toBeDefined();
    await expectNotFound(buildLaunch({ placementId: placement.id, profile: s.teacher }));
  });

  it("a placement of the parent network does not reach the school's profiles", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.networkId });
    await expectNotFound(buildLaunch({ placementId: placement.id, profile: s.teacher }));
  });

  it("a withdrawn tool, an unknown placement id and a malformed id", async () => {
    const withdrawn = await createTestTool({ status: "withdrawn" });
    const placement = await placeTool({ toolId: withdrawn.id, institutionId: s.schoolId });
    await expectNotFound(buildLaunch({ placementId: placement.id, profile: s.teacher }));
    await expectNotFound(buildLaunch({ placementId: "00000000-0000-4000-8000-000000000000", profile: s.teacher }));
    await expectNotFound(buildLaunch({ placementId: "not-a-uuid", profile: s.teacher }));
    await expectNotFound(buildLaunch({ placementId: "'; DROP TABLE \"Tool\"; --", profile: s.teacher }));
  });
});

describe("the launch message", () => {
  it("carries the DESIGN.md parameters, signed so the tool's verifier accepts it", async () => {
    const tool = await createTestTool({ title: "Geometria Viva", consumerKey: "geo-key" });
    const placement = await placeTool({
      toolId: tool.id, institutionId: s.schoolId, classId: s.classId, title: "Geometria — 7º A",
      customParams: { Unidade: "3", "nível-máximo": 5, ativo: true, ignored: { nested: 1 } },
    });
    const launch = await buildLaunch({ placementId: placement.id, profile: s.teacher });
    const f = fieldsOf(launch);
    expect(Object.fromEntries(launch.fields.filter(([n]) => !n.startsWith("oauth_")))).toEqual({
      lti_message_type: "basic-lti-launch-request",
      lti_version: "LTI-1p0",
      resource_link_id: placement.id,
      resource_link_title: "Geometria — 7º A",
      // The tool's pairwise id of the profile.
      user_id: await partnerIdOf(toolPartner(tool.id), s.teacher.id),
      roles: "urn:lti:role:ims/lis/Instructor",
      context_id: s.classId,
      context_title: "7º ano A · Ano letivo 2026",
      context_label: "7º ano A",
      launch_presentation_locale: "pt-BR",
      launch_presentation_return_url: "https://hub.example.org/",
      tool_consumer_instance_guid: "hub.example.org",
      tool_consumer_instance_name: "Hub Educacional",
      custom_unidade: "3",
      custom_n_vel_m_ximo: "5",
      custom_ativo: "true",
    });
    expect(f.get("oauth_consumer_key")).toBe("geo-key");
    expect(f.get("oauth_callback")).toBe("https://hub.example.org/");
    expect(f.get("oauth_signature_method")).toBe("HMAC-SHA1");
    expect(f.get("oauth_version")).toBe("1.0");
    expect(launch.toolOrigin).toBe("https://tool.example");
    expect(await verifyAsTool(launch, tool.secret, "geo-key")).toMatchObject({ ok: true, params: { user_id: await partnerIdOf(toolPartner(tool.id), s.teacher.id) } });
    expect(await verifyAsTool(launch, "wrong-secret", "geo-key")).toMatchObject({ ok: false, rule: "signatureMatches" });
  });

  it("roles map to LIS: Learner, Instructor, Mentor (guardian); no context without a class", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const roles = async (profile: TSchool["student"] | TSchool["guardian"]) => fieldsOf(await buildLaunch({ placementId: placement.id, profile }));
    expect((await roles(s.student)).get("roles")).toBe("urn:lti:role:ims/lis/Learner");
    expect((await roles(s.teacher)).get("roles")).toBe("urn:lti:role:ims/lis/Instructor");
    const guardian = await roles(s.guardian);
    expect(guardian.get("roles")).toBe("urn:lti:role:ims/lis/Mentor");
    expect(guardian.get("user_id")).toBe(await partnerIdOf(toolPartner(tool.id), s.guardian.id));
    expect(guardian.has("context_id")).toBe(false);
    expect(guardian.get("resource_link_title")).toBe(tool.title);
  });

  it("a launch URL with its own query: signed once, not repeated as a field, and verifies", async () => {
    const tool = await createTestTool({ launchUrl: "HTTPS://Tool.Example.com:443/lti?course=7&tag=a+b", consumerKey: "q-key" });
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const launch = await buildLaunch({ placementId: placement.id, profile: s.student });
    expect(launch.action).toBe(tool.launchUrl);
    expect(launch.fields.some(([n]) => n === "course" || n === "tag")).toBe(false);
    // The browser posts to the WHATWG-normalised URL; the tool verifies against what it received.
    const received = { ...launch, action: new URL(tool.launchUrl).toString() };
    expect(await verifyAsTool(received, tool.secret, "q-key")).toMatchObject({ ok: true });
  });

  it("every launch has a fresh nonce", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    const a = fieldsOf(await buildLaunch({ placementId: placement.id, profile: s.student }));
    const b = fieldsOf(await buildLaunch({ placementId: placement.id, profile: s.student }));
    expect(a.get("oauth_nonce")).not.toBe(b.get("oauth_nonce"));
    expect(a.get("oauth_nonce")!.length).toBeGreaterThanOrEqual(22);
  });
});

describe("personal fields follow the institution's ToolSharing for that tool", () => {
  const personal = (launch: TBuiltLaunch) => {
    const f = fieldsOf(launch);
    return { name: f.get("lis_person_name_full"), email: f.get("lis_person_contact_email_primary") };
  };

  it("absent without a sharing rule", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    expect(personal(await buildLaunch({ placementId: placement.id, profile: s.student }))).toEqual({ name: undefined, email: undefined });
  });

  it("only the allowed ones, raw when not anonymized", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario"]);
    expect(personal(await buildLaunch({ placementId: placement.id, profile: s.student }))).toEqual({ name: s.student.name, email: undefined });
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario", "email_usuario", "cpf"]);
    expect(personal(await buildLaunch({ placementId: placement.id, profile: s.student }))).toEqual({ name: s.student.name, email: s.student.email });
  });

  it("anonymized ones as the Data API pseudonym keyed by the tool: stable per tool, different across tools", async () => {
    const toolA = await createTestTool();
    const toolB = await createTestTool();
    const a = await placeTool({ toolId: toolA.id, institutionId: s.schoolId });
    const b = await placeTool({ toolId: toolB.id, institutionId: s.schoolId });
    await shareWithTool(s.schoolId, toolA.id, ["nome_usuario", "email_usuario"], ["email_usuario"]);
    await shareWithTool(s.schoolId, toolB.id, ["nome_usuario", "email_usuario"], ["nome_usuario", "email_usuario"]);

    const first = personal(await buildLaunch({ placementId: a.id, profile: s.student }));
    const again = personal(await buildLaunch({ placementId: a.id, profile: s.student }));
    expect(first.name).toBe(s.student.name);
    expect(first.email).toBe(pseudonymize({ applicationId: toolA.id, attribute: "email_usuario", value: s.student.email }));
    expect(first.email).toMatch(/@anonimo\.invalid$/);
    expect(again).toEqual(first);

    const other = personal(await buildLaunch({ placementId: b.id, profile: s.student }));
    expect(other.name).toMatch(/^Usuário [0-9a-f]{8}$/);
    expect(other.email).not.toBe(first.email);
    const fields = (await buildLaunch({ placementId: b.id, profile: s.student })).fields.map(([, v]) => v).join("\n");
    expect(fields).not.toContain(s.student.name);
    expect(fields).not.toContain(s.student.email);
  });

  it("a sibling school's rule does not apply; the network's is inherited, and the school's own rule wins over it", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await shareWithTool(s.otherSchoolId, tool.id, ["nome_usuario", "email_usuario"]);
    expect(personal(await buildLaunch({ placementId: placement.id, profile: s.student }))).toEqual({ name: undefined, email: undefined });
    await shareWithTool(s.networkId, tool.id, ["nome_usuario", "email_usuario"]);
    expect(personal(await buildLaunch({ placementId: placement.id, profile: s.student }))).toEqual({ name: s.student.name, email: s.student.email });
    await shareWithTool(s.schoolId, tool.id, ["email_usuario"]);
    expect(personal(await buildLaunch({ placementId: placement.id, profile: s.student }))).toEqual({ name: undefined, email: s.student.email });
  });

  it("name not shared: no lis_person_name_* field at all, and the name appears nowhere in the form", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await shareWithTool(s.schoolId, tool.id, ["email_usuario", "idade", "cpf", "telefone"]);
    const launch = await buildLaunch({ placementId: placement.id, profile: s.teacher });
    expect(launch.fields.map(([name]) => name).filter((name) => name.startsWith("lis_person_name"))).toEqual([]);
    expect(launch.fields.map(([, value]) => value).join("\n")).not.toContain(s.teacher.name);
    expect(fieldsOf(launch).get("lis_person_contact_email_primary")).toBe(s.teacher.email);
  });

  it("name anonymized: the tool's pseudonym (the Data API's, keyed by the tool id), never the name", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario"], ["nome_usuario"]);
    const launch = await buildLaunch({ placementId: placement.id, profile: s.teacher });
    expect(fieldsOf(launch).get("lis_person_name_full")).toBe(pseudonymize({ applicationId: tool.id, attribute: "nome_usuario", value: s.teacher.name }));
    expect(launch.fields.map(([, value]) => value).join("\n")).not.toContain(s.teacher.name);
  });
});

describe("no contract, no launch", () => {
  it("once the edtech's link is removed, the launch is forbidden (no signed form), even with sharing rules", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await shareWithTool(s.schoolId, tool.id, ["nome_usuario", "email_usuario"]);
    await expect(buildLaunch({ placementId: placement.id, profile: s.student })).resolves.toBeDefined();
    await db().edtechLink.deleteMany({ where: { edtechId: tool.edtechId } });
    const error = await buildLaunch({ placementId: placement.id, profile: s.student }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("forbidden");
    expect((error as AppError).message).toBe(LAUNCH_REFUSED);
  });

  it("a link at the network covers the school", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await db().edtechLink.deleteMany({ where: { edtechId: tool.edtechId } });
    await db().edtechLink.create({ data: { institutionId: s.networkId, edtechId: tool.edtechId } });
    await expect(buildLaunch({ placementId: placement.id, profile: s.student })).resolves.toBeDefined();
  });
});
