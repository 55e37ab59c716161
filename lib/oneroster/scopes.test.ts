import { describe, expect, it } from "vitest";
import { OAuthError } from "@/lib/oauth/errors";
import { ALL_ONEROSTER_SCOPES, formatScopes, grantScopes, isOneRosterScope, ONEROSTER_SCOPES, parseScopeParameter, scopesOfClaim } from "./scopes";

const CORE = "https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly";
const ROSTER = "https://purl.imsglobal.org/spec/or/v1p2/scope/roster.readonly";
const DEMOGRAPHICS = "https://purl.imsglobal.org/spec/or/v1p2/scope/roster-demographics.readonly";

const refused = (value: unknown) => {
  const result = parseScopeParameter(value);
  expect(result).toBeInstanceOf(OAuthError);
  return result as OAuthError;
};

describe("OneRoster scopes", () => {
  it("are the three Rostering read scopes of 1.2, as full URIs", () => {
    expect(ONEROSTER_SCOPES).toEqual({ rosterCore: CORE, roster: ROSTER, rosterDemographics: DEMOGRAPHICS });
    expect(ALL_ONEROSTER_SCOPES).toEqual([CORE, ROSTER, DEMOGRAPHICS]);
  });

  it("recognises only the full URIs", () => {
    expect(isOneRosterScope(CORE)).toBe(true);
    expect(isOneRosterScope("roster-core.readonly")).toBe(false);
    expect(isOneRosterScope(CORE.toUpperCase())).toBe(false);
  });
});

describe("parseScopeParameter", () => {
  it("no scope asks for all three (absent, null or empty)", () => {
    for (const value of [undefined, null, "", "   "]) expect(parseScopeParameter(value)).toEqual([CORE, ROSTER, DEMOGRAPHICS]);
  });

  it("one scope, several, repeated or with extra spaces: each once, in the canonical order", () => {
    expect(parseScopeParameter(CORE)).toEqual([CORE]);
    expect(parseScopeParameter(`${DEMOGRAPHICS} ${CORE}`)).toEqual([CORE, DEMOGRAPHICS]);
    expect(parseScopeParameter(` ${ROSTER}  ${ROSTER} `)).toEqual([ROSTER]);
  });

  it("an unknown scope among known ones is invalid_scope naming it (400)", () => {
    const error = refused(`${CORE} user.info`);
    expect([error.code, error.status]).toEqual(["invalid_scope", 400]);
    expect(error.description).toContain("user.info");
  });

  it("the short names and other versions' scopes are unknown", () => {
    expect(refused("roster-core.readonly").code).toBe("invalid_scope");
    expect(refused("https://purl.imsglobal.org/spec/or/v1p1/scope/roster-core.readonly").code).toBe("invalid_scope");
  });

  it("characters outside RFC 6749's scope-token are invalid_scope", () => {
    expect(refused(`${CORE}\t${ROSTER}`).code).toBe("invalid_scope");
    expect(refused('"quoted"').code).toBe("invalid_scope");
  });

  it("a scope that is not one string is invalid_request", () => {
    expect(refused([CORE, ROSTER]).code).toBe("invalid_request");
    expect(refused(42).code).toBe("invalid_request");
  });
});

describe("grantScopes", () => {
  it("grants what was asked and is allowed, nothing more", () => {
    expect(grantScopes([CORE], ALL_ONEROSTER_SCOPES)).toEqual([CORE]);
    expect(grantScopes(ALL_ONEROSTER_SCOPES, [CORE, DEMOGRAPHICS])).toEqual([CORE, DEMOGRAPHICS]);
    expect(grantScopes([ROSTER], [CORE])).toEqual([]);
  });
});

describe("the scope claim", () => {
  it("is space-separated and reads back as the same set, ignoring other scopes", () => {
    const claim = formatScopes([CORE, DEMOGRAPHICS]);
    expect(claim).toBe(`${CORE} ${DEMOGRAPHICS}`);
    expect([...scopesOfClaim(`${claim} user.info`)]).toEqual([CORE, DEMOGRAPHICS]);
    expect(scopesOfClaim("").size).toBe(0);
  });
});
