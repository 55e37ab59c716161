import { describe, expect, it } from "vitest";
import { buildLtiClaims, CLAIMS, contextRoles, loginInitiationFields, LTI13_ROLES, NRPS_CLAIM } from "./claims";
import { EXAMPLE_LAUNCH } from "@/test/fixtures/lti13";

const base = EXAMPLE_LAUNCH;

describe("buildLtiClaims", () => {
  // The claim names of the LTI Core 1.3 §5.3 example resource link launch.
  it("uses the LTI Core 1.3 claim URIs", () => {
    expect(CLAIMS.messageType).toBe("https://purl.imsglobal.org/spec/lti/claim/message_type");
    expect(CLAIMS.version).toBe("https://purl.imsglobal.org/spec/lti/claim/version");
    expect(CLAIMS.deploymentId).toBe("https://purl.imsglobal.org/spec/lti/claim/deployment_id");
    expect(CLAIMS.targetLinkUri).toBe("https://purl.imsglobal.org/spec/lti/claim/target_link_uri");
    expect(CLAIMS.resourceLink).toBe("https://purl.imsglobal.org/spec/lti/claim/resource_link");
    expect(CLAIMS.roles).toBe("https://purl.imsglobal.org/spec/lti/claim/roles");
    expect(CLAIMS.deepLinkingSettings).toBe("https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings");
  });

  it("carries every required claim of a resource link launch", () => {
    const claims = buildLtiClaims(base);
    expect(claims[CLAIMS.messageType]).toBe("LtiResourceLinkRequest");
    expect(claims[CLAIMS.version]).toBe("1.3.0");
    expect(claims[CLAIMS.deploymentId]).toBe(base.deploymentId);
    expect(claims[CLAIMS.targetLinkUri]).toBe(base.targetLinkUri);
    expect(claims[CLAIMS.resourceLink]).toEqual({ id: base.resourceLink!.id, title: "Introduction Assignment" });
    expect(claims[CLAIMS.roles]).toEqual([
      "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
      "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Faculty",
    ]);
    expect(claims[CLAIMS.launchPresentation]).toEqual({ document_target: "window", locale: "pt-BR", return_url: "https://hub.example.org/" });
  });

  it("maps every hub role to a context role of the LIS v2 vocabulary", () => {
    expect(contextRoles("aluno")).toEqual(["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]);
    expect(contextRoles("responsavel")).toEqual(["http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"]);
    expect(contextRoles("gestor")).toEqual(["http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator"]);
    for (const roles of Object.values(LTI13_ROLES)) for (const role of roles) expect(role).toMatch(/^http:\/\/purl\.imsglobal\.org\/vocab\/lis\/v2\//);
  });

  it("leaves out every optional claim it was not given (name, email, context, custom, NRPS)", () => {
    const claims = buildLtiClaims(base);
    for (const name of ["name", "email", "given_name", "family_name", CLAIMS.context, CLAIMS.custom, CLAIMS.lis, NRPS_CLAIM]) {
      expect(claims).not.toHaveProperty([name]);
    }
  });

  it("adds the optional claims it was given", () => {
    const claims = buildLtiClaims({
      ...base,
      context: { id: "c1", label: "7º ano A", title: "7º ano A · 2026" },
      custom: { course: "7" },
      name: "Ana Souza",
      email: "ana@example.org",
      membershipsUrl: "https://hub.example.org/lti13/nrps/c1",
    });
    expect(claims[CLAIMS.context]).toEqual({
      id: "c1",
      label: "7º ano A",
      title: "7º ano A · 2026",
      type: ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseSection"],
    });
    expect(claims[CLAIMS.custom]).toEqual({ course: "7" });
    expect(claims.name).toBe("Ana Souza");
    expect(claims.email).toBe("ana@example.org");
    expect(claims[NRPS_CLAIM]).toEqual({ context_memberships_url: "https://hub.example.org/lti13/nrps/c1", service_versions: ["2.0"] });
  });

  it("a deep linking request has settings and no resource link (Deep Linking 2.0 §4.4)", () => {
    const claims = buildLtiClaims({
      ...base,
      messageType: "LtiDeepLinkingRequest",
      resourceLink: undefined,
      deepLinking: { returnUrl: "https://hub.example.org/lti13/deep-linking", data: "opaque" },
    });
    expect(claims).not.toHaveProperty([CLAIMS.resourceLink]);
    expect(claims[CLAIMS.deepLinkingSettings]).toMatchObject({
      deep_link_return_url: "https://hub.example.org/lti13/deep-linking",
      accept_types: ["ltiResourceLink"],
      data: "opaque",
    });
  });

  it("refuses a resource link launch without its resource link", () => {
    expect(() => buildLtiClaims({ ...base, resourceLink: undefined })).toThrow();
  });
});

describe("loginInitiationFields", () => {
  it("sends the six parameters of LTI Core 1.3 §4.1", () => {
    const fields = loginInitiationFields({
      issuer: "https://hub.example.org",
      loginHint: "u1",
      targetLinkUri: "https://tool.example.com/lti/launch",
      messageHint: "h",
      clientId: "cid",
      deploymentId: "d1",
    });
    expect(fields.map(([name]) => name)).toEqual(["iss", "login_hint", "target_link_uri", "lti_message_hint", "client_id", "lti_deployment_id"]);
  });
});
