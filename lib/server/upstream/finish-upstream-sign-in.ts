import type { JWT } from "next-auth/jwt";
import * as client from "openid-client";
import { recordAudit, type TAuditEntry } from "@/lib/server/audit/record-audit";
import { listProfiles } from "@/lib/server/auth/list-profiles";
import { database } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";
import { rememberNonce } from "@/lib/server/lti-nonces/remember-nonce";
import { log } from "@/lib/server/log.mjs";
import { logSignIn } from "@/lib/server/usage/log-sign-in";
import { checkClaims, type TClaimsRefusal, type TLinkKey } from "@/lib/upstream/check-claims";
import type { TUpstreamRefusal } from "@/lib/upstream/refusals";
import { describeUpstreamError } from "./describe-upstream-error";
import type { TPendingSignIn } from "./pending-sign-in";
import { findProvider, type TProviderRow } from "./provider-row";
import { upstreamClient } from "./upstream-client";

export type TFinishResult = { ok: true; token: JWT; callbackUrl: string; profileCount: number } | { ok: false; reason: TUpstreamRefusal };

const CLAIM_REFUSAL: Record<TClaimsRefusal, TUpstreamRefusal> = {
  tenant_foreign: "dominio",
  domain_foreign: "dominio",
  email_missing: "nao-verificado",
  email_unverified: "nao-verificado",
  cpf_missing: "cpf",
};

/** rememberNonce's namespace for the states of upstream sign-ins (LtiNonce rows, kept 10 minutes, as long as a pending sign-in lives). */
const STATE_NAMESPACE = "upstream-sign-in-state";

interface TPersonRow {
  id: string;
  name: string;
  email: string | null;
}

interface TLinkedRow extends TPersonRow {
  unlinkedAt: Date | null;
}

// A person of the provider's network: a profile at its institution or below it.
const inNetwork = (person: string) => `EXISTS (SELECT 1 FROM "Profile" p JOIN down d ON d.id = p."institutionId" WHERE p."personId" = ${person})`;
const LINKED_SQL = `WITH RECURSIVE ${treeCte("down", "$1::uuid")}
SELECT pe.id, pe.name, pe.email, ua."unlinkedAt" FROM "UpstreamAccount" ua JOIN "Person" pe ON pe.id = ua."personId"
 WHERE ua."providerId" = $2::uuid AND ua.subject = $3 AND ${inNetwork("pe.id")}`;
const BY_EMAIL_SQL = `WITH RECURSIVE ${treeCte("down", "$1::uuid")}
SELECT pe.id, pe.name, pe.email FROM "Person" pe WHERE pe.email = $2 AND ${inNetwork("pe.id")}`;
const BY_CPF_SQL = `WITH RECURSIVE ${treeCte("down", "$1::uuid")}
SELECT pe.id, pe.name, pe.email FROM "Person" pe WHERE pe.cpf = $2 AND ${inNetwork("pe.id")}`;

type TFound = { person: TPersonRow; linked: boolean } | { refusal: "desconhecido" | "ambiguo" | "desvinculada" | "outra-pessoa" };

/**
 * The person an upstream account signs in as, never a guess: the person it is linked to, or the
 * one person of the network its verified e-mail or CPF names. An account linked to one person
 * whose e-mail names another is refused (a mailbox given to someone else), and so is an account
 * that names nobody of the network: no person is ever created here. An account its person
 * unlinked signs in again only when that person, signed in, asked to link it (`linkFor`); an
 * account asked to be linked must be that person's.
 */
async function findPerson(provider: TProviderRow, subject: string, key: TLinkKey, linkFor: string | null): Promise<TFound> {
  const sql = database().sql;
  const [[linked], [named]] = await Promise.all([
    sql.query<TLinkedRow>(LINKED_SQL, [provider.institutionId, provider.id, subject]),
    key.rule === "email" ? sql.query<TPersonRow>(BY_EMAIL_SQL, [provider.institutionId, key.email]) : sql.query<TPersonRow>(BY_CPF_SQL, [provider.institutionId, key.cpf]),
  ]);
  if (linked && named && linked.id !== named.id) return { refusal: "ambiguo" };
  const person = linked ?? named;
  if (!person) return { refusal: "desconhecido" };
  if (linkFor !== null && person.id !== linkFor) return { refusal: "outra-pessoa" };
  if (linked?.unlinkedAt && linkFor === null) return { refusal: "desvinculada" };
  return { person, linked: Boolean(linked && !linked.unlinkedAt) };
}

/** The authorization code grant, checked by openid-client to the letter; a failure is the provider's ("provedor") or its answer's ("resposta"). */
async function exchangeCode(provider: TProviderRow, pending: TPendingSignIn, currentUrl: URL): Promise<{ claims: Record<string, unknown> } | { refusal: TUpstreamRefusal }> {
  try {
    const config = await upstreamClient(provider);
    // Checks the RFC 9207 `iss` parameter (required when the provider announces it), the state, and
    // the id token: signature by a key of the provider's JWKS with RS256 only (never `none`), iss,
    // aud, azp, exp, iat, nonce; the code goes once to the token endpoint with the PKCE verifier.
    const tokens = await client.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce });
    const claims = tokens.claims();
    if (!claims) return { refusal: "resposta" };
    return { claims };
  } catch (error) {
    const upstream = error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError || (error instanceof TypeError && !(error instanceof client.ClientError));
    log().warn({ providerId: provider.id, error: describeUpstreamError(error) }, upstream ? "Upstream provider refused the sign-in" : "Upstream answer failed verification");
    return { refusal: upstream ? "provedor" : "resposta" };
  }
}

/** An upstream sign-in's row in the provider's institution's audit log. */
const auditEntry = (provider: TProviderRow, personId: string | null, action: "upstream.sign_in" | "upstream.link" | "upstream.refused", details: Record<string, string>): TAuditEntry => ({
  actorPersonId: personId,
  action,
  targetType: "identity_provider",
  targetId: provider.id,
  institutionId: provider.institutionId,
  details,
});

/** A refusal, recorded on its own (nothing else is written). */
async function auditRefusal(provider: TProviderRow, reason: string): Promise<void> {
  await transaction((tx) => recordAudit(tx, auditEntry(provider, null, "upstream.refused", { reason })));
}

/**
 * Finishes an upstream sign-in at the callback: the state must be the one sealed in this browser's
 * pending cookie and never seen before, the provider still enabled, the code grant and id token
 * valid, the account's claims those of the network, and the account one person's. Then the session
 * is exactly what a password gives that person (the picker, partner OAuth, launches unchanged),
 * with the method recorded for the usage counts.
 */
export async function finishUpstreamSignIn(options: { currentUrl: URL; pending: TPendingSignIn | null; sessionPersonId: string | null }): Promise<TFinishResult> {
  const { pending, currentUrl } = options;
  const state = currentUrl.searchParams.get("state");
  if (!pending || !state || state !== pending.state) return { ok: false, reason: "estado" };
  // Single use across instances: a second arrival of the same state (a reload, a replayed URL) stops here.
  if (!(await rememberNonce({ consumerKey: STATE_NAMESPACE, nonce: state }))) return { ok: false, reason: "estado" };
  const provider = await findProvider(pending.providerId);
  if (!provider?.enabled) return { ok: false, reason: "desativado" };

  const exchanged = await exchangeCode(provider, pending, currentUrl);
  if ("refusal" in exchanged) {
    await auditRefusal(provider, exchanged.refusal);
    return { ok: false, reason: exchanged.refusal };
  }
  const checked = checkClaims(exchanged.claims, provider);
  if (!checked.ok) {
    await auditRefusal(provider, checked.reason);
    return { ok: false, reason: CLAIM_REFUSAL[checked.reason] };
  }
  // A link asked from "Meus dados" holds only while the same person is still signed in.
  const linkFor = pending.linkFor ?? null;
  if (linkFor !== null && linkFor !== options.sessionPersonId) return { ok: false, reason: "estado" };
  const found = await findPerson(provider, checked.subject, checked.key, linkFor);
  if ("refusal" in found) {
    await auditRefusal(provider, found.refusal);
    return { ok: false, reason: found.refusal };
  }
  const { person } = found;
  await transaction(async (tx) => {
    await tx.upstreamAccount.upsert({
      where: { providerId_subject: { providerId: provider.id, subject: checked.subject } },
      create: { providerId: provider.id, subject: checked.subject, personId: person.id, email: checked.email },
      // personId too: a link whose person has left the network (no profile under the provider's
      // institution any more) is not "linked" for findPerson, and now points at whom the rule found.
      update: { personId: person.id, lastUsedAt: new Date(), email: checked.email, unlinkedAt: null },
    });
    const details = { provider: provider.name, kind: provider.kind, rule: checked.key.rule };
    if (!found.linked) await recordAudit(tx, auditEntry(provider, person.id, "upstream.link", details));
    await recordAudit(tx, auditEntry(provider, person.id, "upstream.sign_in", details));
  });
  const profiles = await listProfiles({ personId: person.id });
  const [only] = profiles.length === 1 ? profiles : [];
  if (only) await logSignIn({ institutionId: only.institution.id, role: only.role, method: provider.kind });
  return {
    ok: true,
    callbackUrl: pending.callbackUrl,
    profileCount: profiles.length,
    token: { sub: person.id, name: person.name, email: person.email, profileId: only?.id ?? null, method: provider.kind },
  };
}
