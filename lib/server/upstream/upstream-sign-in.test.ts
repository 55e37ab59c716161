// Upstream sign-in (issue #42) against a real OpenID provider (oidc-provider, started here like
// each preset): the services the routes call, from the authorization request to the session's
// claims, and every refusal. The browser flow through the served hub is e2e/upstream-sign-in.spec.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { db } from "@/lib/server/db/database";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { ZIdentityProviderFormSchema } from "@/lib/validations/upstream";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { setupTestDatabase } from "@/test/database";
import { cancelHeadless, DEFAULT_TENANT_ID, ID_TOKEN_TAMPER_MODES, signInHeadless, startUpstreamProvider, type TUpstreamPreset, type TUpstreamProvider } from "@/test/fixtures/upstream-provider";
import { finishUpstreamSignIn, type TFinishResult } from "./finish-upstream-sign-in";
import { listSignInOptions, listLinkableProviders, providerForEmail } from "./list-sign-in-options";
import { listUpstreamAccounts } from "./list-upstream-accounts";
import { openPending, type TPendingSignIn } from "./pending-sign-in";
import { saveIdentityProvider } from "./save-identity-provider";
import { setIdentityProviderState } from "./set-identity-provider-state";
import { startUpstreamSignIn } from "./start-upstream-sign-in";
import { unlinkUpstreamAccount } from "./unlink-upstream-account";

setupTestDatabase();

const HUB = "http://hub.test";
const REDIRECT_URI = `${HUB}/entrar/retorno`;
const providers = {} as Record<TUpstreamPreset, TUpstreamProvider>;
const ids = {} as Record<TUpstreamPreset, string>;
let f: TManagementFixture;
const people = {} as Record<"ana" | "bruno" | "guardian" | "flora", { personId: string; profileId: string }>;

/** The gestão form's fields as the action reads them. */
const form = (fields: Record<string, string>): Record<string, string> => fields;

async function addPerson(name: string, institutionId: string, data: { email?: string; cpf?: string }, role: "aluno" | "responsavel" = "aluno") {
  const person = await createPerson({ name, ...data });
  const profile = await createProfile({ personId: person.id, institutionId, role });
  return { personId: person.id, profileId: profile.id };
}

/** The whole trip: the hub's authorization request, the person at the provider, the hub's callback. */
async function signInWith(preset: TUpstreamPreset, login: string, options: { sessionPersonId?: string | null; linkFor?: string; pending?: (p: TPendingSignIn) => TPendingSignIn | null } = {}): Promise<TFinishResult & { callback: URL; pending: TPendingSignIn | null }> {
  const start = await startUpstreamSignIn({ providerId: ids[preset], callbackUrl: "/galeria", linkFor: options.linkFor ?? null });
  if (!start.ok) throw new Error(`start refused: ${start.reason}`);
  const sealed = openPending(start.pending)!;
  const pending = options.pending ? options.pending(sealed) : sealed;
  const callback = await signInHeadless(start.location, login);
  const result = await finishUpstreamSignIn({ currentUrl: callback, pending, sessionPersonId: options.sessionPersonId ?? null });
  return { ...result, callback, pending };
}

const refusal = (result: TFinishResult) => (result.ok ? "signed in" : result.reason);

beforeAll(async () => {
  process.env.HUB_BASE_URL = HUB;
  process.env.DEMO_TOOL = "1";
  resetEnvCache();
  f = await createManagementFixture();
  for (const preset of ["google", "microsoft", "govbr", "oidc"] as const) {
    providers[preset] = await startUpstreamProvider({
      preset,
      clients: [{ client_id: `hub-${preset}`, client_secret: `secret-${preset}`, redirect_uris: [REDIRECT_URI], ...(preset === "microsoft" ? { token_endpoint_auth_method: "client_secret_post" as const } : {}) }],
    });
    const input = ZIdentityProviderFormSchema.parse(
      form({
        kind: preset,
        issuer: providers[preset].issuer,
        clientId: `hub-${preset}`,
        clientSecret: `secret-${preset}`,
        allowedDomains: preset === "govbr" ? "" : "escola.edu.br",
        tenantId: preset === "microsoft" ? DEFAULT_TENANT_ID : "",
        linkRule: "email",
      }),
    );
    ids[preset] = (await saveIdentityProvider({ scope: f.network, institutionId: f.networkId, input })).id;
  }
  people.ana = await addPerson("Ana Souza", f.school1.id, { email: "ana@escola.edu.br" });
  people.bruno = await addPerson("Bruno Lima", f.school1.id, { email: "bruno@escola.edu.br" });
  people.guardian = await addPerson("Rui Prado", f.school2.id, { cpf: "52998224725" }, "responsavel");
  people.flora = await addPerson("Flora Dias", f.school2.id, { email: "flora@escola.edu.br" });
}, 60_000);

afterAll(async () => {
  for (const provider of Object.values(providers)) await provider.close();
});

describe("the provider's settings", () => {
  it("are checked before anything is stored: https issuer, a secret, domains for the e-mail rule, Entra's tenant", async () => {
    const parse = (fields: Record<string, string>) => ZIdentityProviderFormSchema.safeParse(form({ kind: "google", clientId: "c", clientSecret: "s", allowedDomains: "escola.edu.br", ...fields }));
    expect(parse({}).success).toBe(true);
    expect(parse({}).data?.issuer).toBe("https://accounts.google.com");
    expect(parse({ issuer: "ftp://accounts.google.com" }).error?.issues[0]?.path).toEqual(["issuer"]);
    expect(parse({ issuer: "https://idp.example/?x=1" }).success).toBe(false);
    expect(parse({ allowedDomains: "" }).error?.issues[0]?.path).toEqual(["allowedDomains"]);
    expect(parse({ allowedDomains: "escola.edu.br, not a domain" }).success).toBe(false);
    expect(parse({ kind: "microsoft", tenantId: "contoso" }).error?.issues[0]?.path).toEqual(["tenantId"]);
    expect(parse({ kind: "microsoft", tenantId: DEFAULT_TENANT_ID }).data?.issuer).toBe(`https://login.microsoftonline.com/${DEFAULT_TENANT_ID}/v2.0`);
    expect(parse({ kind: "govbr", allowedDomains: "" }).data).toMatchObject({ linkRule: "cpf", issuer: "https://sso.acesso.gov.br" });
    expect(parse({ kind: "oidc", issuer: "https://idp.example", linkRule: "" }).error?.issues[0]?.path).toEqual(["linkRule"]);
  });

  it("refuse an http issuer off loopback, a provider without a secret, and a manager out of reach", async () => {
    const input = (fields: Record<string, string>) => ZIdentityProviderFormSchema.parse(form({ kind: "oidc", clientId: "c", allowedDomains: "escola.edu.br", linkRule: "email", ...fields }));
    await expect(saveIdentityProvider({ scope: f.network, institutionId: f.networkId, input: input({ issuer: "http://idp.example", clientSecret: "s" }) })).rejects.toMatchObject({ code: "bad_request", fields: { issuer: expect.any(String) } });
    await expect(saveIdentityProvider({ scope: f.network, institutionId: f.networkId, input: input({ issuer: "https://idp.example" }) })).rejects.toMatchObject({ fields: { clientSecret: expect.any(String) } });
    await expect(saveIdentityProvider({ scope: f.manager1, institutionId: f.networkId, input: input({ issuer: "https://idp.example", clientSecret: "s" }) })).rejects.toMatchObject({ code: "not_found" });
  });

  it("keep the secret sealed, and the audit row never holds it", async () => {
    const row = await db().identityProvider.findUniqueOrThrow({ where: { id: ids.google } });
    expect(row.clientSecretSealed).toMatch(/^v2\./);
    expect(row.clientSecretSealed).not.toContain("secret-google");
    const audit = await db().auditLog.findFirstOrThrow({ where: { targetId: ids.google, action: "identity_provider.create" } });
    expect(JSON.stringify(audit.details)).not.toContain("secret-google");
    expect(audit.details).toMatchObject({ before: null, after: { kind: "google", clientId: "hub-google", allowedDomains: ["escola.edu.br"], enabled: true } });
  });
});

describe("a sign-in with an upstream account", () => {
  it("signs in the person its verified e-mail names, with the session a password gives and the method recorded", async () => {
    const result = await signInWith("google", "ana@escola.edu.br");
    expect(result).toMatchObject({ ok: true, callbackUrl: "/galeria", profileCount: 1, token: { sub: people.ana.personId, profileId: people.ana.profileId, name: "Ana Souza", method: "google" } });
    expect(await listUpstreamAccounts({ personId: people.ana.personId })).toEqual([expect.objectContaining({ providerId: ids.google, kind: "google", email: "ana@escola.edu.br" })]);
    const actions = (await db().auditLog.findMany({ where: { targetId: ids.google, actorPersonId: people.ana.personId }, orderBy: { createdAt: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(["upstream.link", "upstream.sign_in"]);
    expect(await db().signInLog.count({ where: { institutionId: f.school1.id, method: "google" } })).toBe(1);
  });

  it("comes back to the same person through its link, and reads discovery once", async () => {
    providers.google.resetCounts();
    for (let i = 0; i < 3; i++) expect(await signInWith("google", "ana@escola.edu.br")).toMatchObject({ ok: true, token: { sub: people.ana.personId } });
    expect(providers.google.counts.discovery).toBe(0); // read at the first sign-in above, cached for an hour
    expect(await db().upstreamAccount.count({ where: { personId: people.ana.personId } })).toBe(1);
    expect(await db().auditLog.count({ where: { targetId: ids.google, action: "upstream.link" } })).toBe(1);
  });

  it("Entra: an account of the tenant signs in; one of another tenant is refused", async () => {
    expect(await signInWith("microsoft", "ana@escola.edu.br")).toMatchObject({ ok: true, token: { sub: people.ana.personId, method: "microsoft" } });
    expect(refusal(await signInWith("microsoft", "eva@escola.edu.br"))).toBe("dominio");
    expect(refusal(await signInWith("microsoft", "bruno@escola.edu.br"))).toBe("nao-verificado"); // xms_edov false
  });

  it("gov.br: the CPF finds the guardian; an unknown or invalid CPF is refused", async () => {
    expect(await signInWith("govbr", "52998224725")).toMatchObject({ ok: true, token: { sub: people.guardian.personId, profileId: people.guardian.profileId, method: "govbr" } });
    expect(refusal(await signInWith("govbr", "42071398505"))).toBe("desconhecido");
    expect(refusal(await signInWith("govbr", "52998224724"))).toBe("cpf");
  });

  it("refuses an unverified e-mail, a foreign domain, a consumer Google account and a person the network does not have", async () => {
    const before = await db().upstreamAccount.count();
    expect(refusal(await signInWith("google", "bruno@escola.edu.br"))).toBe("nao-verificado");
    expect(refusal(await signInWith("google", "carla@outra.edu.br"))).toBe("dominio");
    expect(refusal(await signInWith("google", "davi@gmail.com"))).toBe("dominio");
    expect(refusal(await signInWith("oidc", "carla@outra.edu.br"))).toBe("dominio");
    expect(await db().upstreamAccount.count()).toBe(before);
    expect(await db().auditLog.count({ where: { action: "upstream.refused", targetId: ids.google } })).toBeGreaterThanOrEqual(3);
  });

  it("refuses an account whose verified e-mail names nobody of the network, or someone of another network only", async () => {
    const ghost = await startUpstreamProvider({
      preset: "oidc",
      clients: [{ client_id: "hub-ghost", client_secret: "secret-ghost", redirect_uris: [REDIRECT_URI] }],
      accounts: [
        { login: "zoe@escola.edu.br", claims: { sub: "zoe", email: "zoe@escola.edu.br", email_verified: true } },
        { login: "ivo@escola.edu.br", claims: { sub: "ivo", email: "ivo@escola.edu.br", email_verified: true } },
      ],
    });
    const elsewhere = await createInstitution({ name: "Outra rede", kind: "network" });
    await addPerson("Ivo de Fora", elsewhere.id, { email: "ivo@escola.edu.br" });
    try {
      const input = ZIdentityProviderFormSchema.parse(form({ kind: "oidc", issuer: ghost.issuer, clientId: "hub-ghost", clientSecret: "secret-ghost", allowedDomains: "escola.edu.br", linkRule: "email" }));
      const { id } = await saveIdentityProvider({ scope: f.network, institutionId: f.networkId, input });
      for (const login of ["zoe@escola.edu.br", "ivo@escola.edu.br"]) {
        const start = await startUpstreamSignIn({ providerId: id, callbackUrl: "/" });
        if (!start.ok) throw new Error(start.reason);
        const callback = await signInHeadless(start.location, login);
        expect(refusal(await finishUpstreamSignIn({ currentUrl: callback, pending: openPending(start.pending), sessionPersonId: null }))).toBe("desconhecido");
      }
      expect(await db().upstreamAccount.count({ where: { providerId: id } })).toBe(0);
      await setIdentityProviderState({ scope: f.network, institutionId: f.networkId, providerId: id, op: "delete" });
    } finally {
      await ghost.close();
    }
  });
});

describe("what the callback refuses before any person is looked at", () => {
  it("a state that is not the one sealed in this browser, or no pending sign-in at all", async () => {
    expect(refusal(await signInWith("google", "ana@escola.edu.br", { pending: (p) => ({ ...p, state: "x".repeat(43) }) }))).toBe("estado");
    expect(refusal(await signInWith("google", "ana@escola.edu.br", { pending: () => null }))).toBe("estado");
    // A pending cookie past its 10 minutes is no pending sign-in.
    const start = await startUpstreamSignIn({ providerId: ids.google, callbackUrl: "/" });
    expect(start.ok && openPending(start.pending, Date.now() + 601_000)).toBeNull();
  });

  it("the same return URL twice: the second is refused before the code is sent again", async () => {
    const first = await signInWith("google", "ana@escola.edu.br");
    expect(first.ok).toBe(true);
    providers.google.resetCounts();
    expect(refusal(await finishUpstreamSignIn({ currentUrl: first.callback, pending: first.pending, sessionPersonId: null }))).toBe("estado");
    expect(providers.google.counts.token).toBe(0);
  });

  it("a provider disabled while the person was at it", async () => {
    const start = await startUpstreamSignIn({ providerId: ids.oidc, callbackUrl: "/" });
    if (!start.ok) throw new Error(start.reason);
    const callback = await signInHeadless(start.location, "ana@escola.edu.br");
    await setIdentityProviderState({ scope: f.network, institutionId: f.networkId, providerId: ids.oidc, op: "disable" });
    try {
      expect(refusal(await finishUpstreamSignIn({ currentUrl: callback, pending: openPending(start.pending), sessionPersonId: null }))).toBe("desativado");
      expect(await startUpstreamSignIn({ providerId: ids.oidc, callbackUrl: "/" })).toEqual({ ok: false, reason: "desativado" });
      // A deleted provider's button, or a made-up link, reads the same.
      expect(await startUpstreamSignIn({ providerId: "00000000-0000-4000-8000-000000000000", callbackUrl: "/" })).toEqual({ ok: false, reason: "desativado" });
      expect(await startUpstreamSignIn({ providerId: "'; DROP TABLE", callbackUrl: "/" })).toEqual({ ok: false, reason: "desativado" });
      // 36 characters of the UUID alphabet that are no UUID: refused before the database sees them.
      expect(await startUpstreamSignIn({ providerId: "-".repeat(36), callbackUrl: "/" })).toEqual({ ok: false, reason: "desativado" });
      expect((await listSignInOptions({ institutionId: f.school1.id })).map((o) => o.providerId)).not.toContain(ids.oidc);
    } finally {
      await setIdentityProviderState({ scope: f.network, institutionId: f.networkId, providerId: ids.oidc, op: "enable" });
    }
  });

  it("the person cancelling at the provider (error=access_denied)", async () => {
    const start = await startUpstreamSignIn({ providerId: ids.oidc, callbackUrl: "/" });
    if (!start.ok) throw new Error(start.reason);
    const callback = await cancelHeadless(start.location);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(refusal(await finishUpstreamSignIn({ currentUrl: callback, pending: openPending(start.pending), sessionPersonId: null }))).toBe("provedor");
  });

  it("an `iss` that is not the provider's (RFC 9207 mix-up), where the provider announces it", async () => {
    const start = await startUpstreamSignIn({ providerId: ids.oidc, callbackUrl: "/" });
    if (!start.ok) throw new Error(start.reason);
    const callback = await signInHeadless(start.location, "ana@escola.edu.br");
    expect(callback.searchParams.get("iss")).toBe(providers.oidc.issuer);
    callback.searchParams.set("iss", providers.google.issuer);
    expect(refusal(await finishUpstreamSignIn({ currentUrl: callback, pending: openPending(start.pending), sessionPersonId: null }))).toBe("resposta");
  });

  it.each(ID_TOKEN_TAMPER_MODES)("an id token with %s", async (mode) => {
    // replay-previous-nonce re-uses the nonce of the flow before: one honest flow first.
    expect((await signInWith("google", "ana@escola.edu.br")).ok).toBe(true);
    providers.google.setTamper(mode);
    try {
      expect(refusal(await signInWith("google", "ana@escola.edu.br"))).toBe("resposta");
    } finally {
      providers.google.setTamper(null);
    }
  });
});

describe("the provider's keys", () => {
  it("a rotated key is fetched when a token names it, once the cached set is a minute old", async () => {
    const rotating = await startUpstreamProvider({ preset: "oidc", clients: [{ client_id: "hub-rotating", client_secret: "secret-rotating", redirect_uris: [REDIRECT_URI] }] });
    const input = ZIdentityProviderFormSchema.parse(form({ kind: "oidc", issuer: rotating.issuer, clientId: "hub-rotating", clientSecret: "secret-rotating", allowedDomains: "escola.edu.br", linkRule: "email" }));
    const { id } = await saveIdentityProvider({ scope: f.network, institutionId: f.school1.id, input });
    const signIn = async () => {
      const start = await startUpstreamSignIn({ providerId: id, callbackUrl: "/" });
      if (!start.ok) throw new Error(start.reason);
      return finishUpstreamSignIn({ currentUrl: await signInHeadless(start.location, "ana@escola.edu.br"), pending: openPending(start.pending), sessionPersonId: null });
    };
    try {
      expect((await signIn()).ok).toBe(true);
      expect(rotating.counts.jwks).toBe(1);
      await rotating.rotateKey();
      // Within a minute of the last fetch a token naming an unknown key is refused without asking
      // the provider again: forged kids cannot make the hub hammer it.
      expect(refusal(await signIn())).toBe("resposta");
      expect(rotating.counts.jwks).toBe(1);
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 61_000);
      expect(await signIn()).toMatchObject({ ok: true, token: { sub: people.ana.personId } });
      expect(rotating.counts.jwks).toBe(2);
      expect(rotating.counts.discovery).toBe(1);
    } finally {
      vi.useRealTimers();
      await setIdentityProviderState({ scope: f.network, institutionId: f.school1.id, providerId: id, op: "delete" });
      await rotating.close();
    }
  });
});

describe("linked accounts", () => {
  it("an account linked to one person whose e-mail now names another is refused", async () => {
    // Ana's mailbox handed to Flora: the link says Ana, the e-mail says Flora.
    await db().person.update({ where: { id: people.ana.personId }, data: { email: "ana.souza@escola.edu.br" } });
    await db().person.update({ where: { id: people.flora.personId }, data: { email: "ana@escola.edu.br" } });
    try {
      expect(refusal(await signInWith("google", "ana@escola.edu.br"))).toBe("ambiguo");
    } finally {
      await db().person.update({ where: { id: people.flora.personId }, data: { email: "flora@escola.edu.br" } });
      await db().person.update({ where: { id: people.ana.personId }, data: { email: "ana@escola.edu.br" } });
    }
  });

  it("unlinked, it signs nobody in until its person links it again, signed in; another person cannot take it", async () => {
    const [account] = await listUpstreamAccounts({ personId: people.ana.personId, providerInstitutionIds: [f.networkId] });
    expect(account?.kind).toBe("google");
    await unlinkUpstreamAccount({ personId: people.ana.personId, accountId: account!.id });
    await expect(unlinkUpstreamAccount({ personId: people.flora.personId, accountId: account!.id })).rejects.toMatchObject({ code: "not_found" });
    expect((await listUpstreamAccounts({ personId: people.ana.personId })).map((a) => a.kind)).not.toContain("google");
    expect(refusal(await signInWith("google", "ana@escola.edu.br"))).toBe("desvinculada");
    // "Vincular" from Meus dados: only for the person signed in, and only with her own account.
    expect((await listLinkableProviders({ personId: people.ana.personId })).map((o) => o.providerId)).toContain(ids.google);
    expect(refusal(await signInWith("google", "ana@escola.edu.br", { linkFor: people.ana.personId, sessionPersonId: people.flora.personId }))).toBe("estado");
    expect(refusal(await signInWith("google", "ana@escola.edu.br", { linkFor: people.flora.personId, sessionPersonId: people.flora.personId }))).toBe("outra-pessoa");
    expect(await signInWith("google", "ana@escola.edu.br", { linkFor: people.ana.personId, sessionPersonId: people.ana.personId })).toMatchObject({ ok: true, token: { sub: people.ana.personId } });
    expect(await signInWith("google", "ana@escola.edu.br")).toMatchObject({ ok: true, token: { sub: people.ana.personId } });
  });

  it("a link whose person left the network follows the rule to whom the account now names", async () => {
    const leaver = await addPerson("Gil Antigo", f.school2.id, { email: "gil@escola.edu.br" });
    const account = { login: "gil@escola.edu.br", claims: { sub: "gil", email: "gil@escola.edu.br", email_verified: true } };
    const op = await startUpstreamProvider({ preset: "oidc", clients: [{ client_id: "hub-gil", client_secret: "secret-gil", redirect_uris: [REDIRECT_URI] }], accounts: [account] });
    try {
      const input = ZIdentityProviderFormSchema.parse(form({ kind: "oidc", issuer: op.issuer, clientId: "hub-gil", clientSecret: "secret-gil", allowedDomains: "escola.edu.br", linkRule: "email" }));
      const { id } = await saveIdentityProvider({ scope: f.network, institutionId: f.networkId, input });
      const signIn = async () => {
        const start = await startUpstreamSignIn({ providerId: id, callbackUrl: "/" });
        if (!start.ok) throw new Error(start.reason);
        return finishUpstreamSignIn({ currentUrl: await signInHeadless(start.location, "gil@escola.edu.br"), pending: openPending(start.pending), sessionPersonId: null });
      };
      expect(await signIn()).toMatchObject({ ok: true, token: { sub: leaver.personId } });
      // Gil leaves (his profile moves to another network) and the mailbox goes to Hana.
      const elsewhere = await createInstitution({ name: "Rede de destino", kind: "network" });
      await db().profile.update({ where: { id: leaver.profileId }, data: { institutionId: elsewhere.id } });
      await db().person.update({ where: { id: leaver.personId }, data: { email: "gil.novo@outra.edu.br" } });
      const hana = await addPerson("Hana Reis", f.school2.id, { email: "gil@escola.edu.br" });
      expect(await signIn()).toMatchObject({ ok: true, token: { sub: hana.personId } });
      expect((await db().upstreamAccount.findFirstOrThrow({ where: { providerId: id } })).personId).toBe(hana.personId);
      expect(await listUpstreamAccounts({ personId: leaver.personId })).toEqual([]);
      await setIdentityProviderState({ scope: f.network, institutionId: f.networkId, providerId: id, op: "delete" });
    } finally {
      await op.close();
    }
  });

  it("deleting the provider removes its links and its button; the rule history shows every change", async () => {
    const input = ZIdentityProviderFormSchema.parse(form({ kind: "oidc", issuer: providers.oidc.issuer, clientId: "hub-oidc", clientSecret: "secret-oidc", allowedDomains: "escola.edu.br", linkRule: "email" }));
    const { id } = await saveIdentityProvider({ scope: f.network, institutionId: f.school2.id, input });
    expect((await listSignInOptions({ institutionId: f.school2.id })).filter((o) => o.kind === "oidc")).toHaveLength(2);
    expect((await listSignInOptions({ institutionId: f.school1.id })).filter((o) => o.kind === "oidc")).toHaveLength(1);
    await setIdentityProviderState({ scope: f.network, institutionId: f.school2.id, providerId: id, op: "delete" });
    expect(await db().identityProvider.count({ where: { id } })).toBe(0);
    const history = await db().auditLog.findMany({ where: { targetId: id }, orderBy: { createdAt: "asc" } });
    expect(history.map((h) => h.action)).toEqual(["identity_provider.create", "identity_provider.delete"]);
    expect(history[1]!.details).toMatchObject({ before: { issuer: providers.oidc.issuer }, after: null });
  });
});

describe("home-realm discovery", () => {
  it("an e-mail of an allowed domain leads to the one provider that claims it, on the school's page too", async () => {
    const options = await listSignInOptions({ institutionId: f.school1.id });
    expect(options.map((o) => o.label)).toEqual(expect.arrayContaining(["Entrar com Google", "Entrar com Microsoft", "Entrar com gov.br"]));
    // Google, Microsoft and the generic provider all allow escola.edu.br here: no single answer.
    expect(providerForEmail(options, "ana@escola.edu.br")).toBeNull();
    expect(providerForEmail(options.filter((o) => o.kind === "google"), "Ana@Escola.edu.br")?.providerId).toBe(ids.google);
    expect(providerForEmail(options, "ana@outra.edu.br")).toBeNull();
    expect(providerForEmail(options, "12345678909")).toBeNull();
  });
});
