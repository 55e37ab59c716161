import { describe, expect, it } from "vitest";
import { CLAIM_RULES, checkClaims, type TClaimsProvider } from "./check-claims";
import { emailDomain } from "./presets";

const google: TClaimsProvider = { kind: "google", linkRule: "email", allowedDomains: ["escola.edu.br"], tenantId: null };
const microsoft: TClaimsProvider = { kind: "microsoft", linkRule: "email", allowedDomains: ["rede.edu.br"], tenantId: "9188040d-6c67-4c5b-b112-36a304b66dad" };
const govbr: TClaimsProvider = { kind: "govbr", linkRule: "cpf", allowedDomains: [], tenantId: null };
const generic: TClaimsProvider = { kind: "oidc", linkRule: "email", allowedDomains: ["escola.edu.br"], tenantId: null };

const googleClaims = { sub: "1043", email: "Ana@Escola.edu.br", email_verified: true, hd: "escola.edu.br" };
const entraClaims = { sub: "AAAA", tid: "9188040D-6C67-4C5B-B112-36A304B66DAD", email: "ana@rede.edu.br", xms_edov: true };

describe("checkClaims", () => {
  it("accepts a verified Workspace account of an allowed domain, the e-mail lowercased", () => {
    expect(checkClaims(googleClaims, google)).toEqual({ ok: true, subject: "1043", key: { rule: "email", email: "ana@escola.edu.br" }, email: "ana@escola.edu.br" });
  });
  it("checks the rules in a fixed order", () => {
    expect(CLAIM_RULES.map(([name]) => name)).toEqual(["tenantIsTheNetworks", "emailPresent", "emailVerified", "emailInAllowedDomain", "googleWorkspaceDomain", "cpfPresent"]);
  });
  it("tenantIsTheNetworks: an Entra account of another tenant is refused, whatever its e-mail", () => {
    expect(checkClaims(entraClaims, microsoft)).toMatchObject({ ok: true });
    expect(checkClaims({ ...entraClaims, tid: "00000000-0000-0000-0000-000000000000" }, microsoft)).toEqual({ ok: false, reason: "tenant_foreign" });
    expect(checkClaims({ ...entraClaims, tid: undefined }, microsoft)).toEqual({ ok: false, reason: "tenant_foreign" });
  });
  it("emailPresent: no e-mail, no link by e-mail", () => {
    expect(checkClaims({ sub: "1", email_verified: true, hd: "escola.edu.br" }, google)).toEqual({ ok: false, reason: "email_missing" });
  });
  it("emailVerified: email_verified must be true; Entra may say it with xms_edov", () => {
    expect(checkClaims({ ...googleClaims, email_verified: false }, google)).toEqual({ ok: false, reason: "email_unverified" });
    expect(checkClaims({ ...googleClaims, email_verified: undefined }, google)).toEqual({ ok: false, reason: "email_unverified" });
    expect(checkClaims({ ...googleClaims, email_verified: "true" }, google)).toMatchObject({ ok: true });
    expect(checkClaims({ ...entraClaims, xms_edov: false }, microsoft)).toEqual({ ok: false, reason: "email_unverified" });
    expect(checkClaims({ ...entraClaims, xms_edov: undefined, email_verified: true }, microsoft)).toMatchObject({ ok: true });
    // xms_edov means nothing from another kind of provider.
    expect(checkClaims({ sub: "1", email: "a@escola.edu.br", xms_edov: true }, generic)).toEqual({ ok: false, reason: "email_unverified" });
  });
  it("emailInAllowedDomain: a foreign domain is refused, a subdomain too", () => {
    expect(checkClaims({ ...googleClaims, email: "ana@gmail.com" }, google)).toEqual({ ok: false, reason: "domain_foreign" });
    expect(checkClaims({ ...googleClaims, email: "ana@alunos.escola.edu.br" }, google)).toEqual({ ok: false, reason: "domain_foreign" });
    expect(checkClaims({ ...googleClaims, email: "not-an-email" }, google)).toEqual({ ok: false, reason: "domain_foreign" });
  });
  it("googleWorkspaceDomain: a Google account needs hd, and hd must be allowed", () => {
    expect(checkClaims({ ...googleClaims, hd: undefined }, google)).toEqual({ ok: false, reason: "domain_foreign" });
    expect(checkClaims({ ...googleClaims, hd: "outra.edu.br" }, google)).toEqual({ ok: false, reason: "domain_foreign" });
    // hd is Google's: a generic provider needs none.
    expect(checkClaims({ sub: "1", email: "a@escola.edu.br", email_verified: true }, generic)).toMatchObject({ ok: true });
  });
  it("cpfPresent: gov.br links by the CPF in sub, check digits and all", () => {
    expect(checkClaims({ sub: "52998224725", email: "x@gmail.com" }, govbr)).toEqual({ ok: true, subject: "52998224725", key: { rule: "cpf", cpf: "52998224725" }, email: "x@gmail.com" });
    expect(checkClaims({ sub: "52998224724" }, govbr)).toEqual({ ok: false, reason: "cpf_missing" });
    expect(checkClaims({ sub: "abc" }, govbr)).toEqual({ ok: false, reason: "cpf_missing" });
    expect(checkClaims({ sub: "abc", cpf: "529.982.247-25" }, { ...govbr, kind: "oidc" })).toMatchObject({ ok: true, key: { rule: "cpf", cpf: "52998224725" } });
  });
});

describe("emailDomain", () => {
  it("lowercases the domain and refuses what is not an address", () => {
    expect(emailDomain("Ana@Escola.EDU.br")).toBe("escola.edu.br");
    expect(emailDomain("ana@")).toBeNull();
    expect(emailDomain("@escola.edu.br")).toBeNull();
    expect(emailDomain("ana@localhost")).toBeNull();
    expect(emailDomain("ana@esc ola.br")).toBeNull();
  });
});
