// After HUB_SECRET rotates (docs/security.md, "Rotating HUB_SECRET"): every value sealed at rest
// with an older secret of the ring is sealed again with the current one, so the old secret can
// then be dropped from HUB_PREVIOUS_SECRETS. Runs on every server start (instrumentation.ts) and
// as `npm run reseal-secrets`. Idempotent and safe with several instances: each row is rewritten
// only if it still holds the value that was read (a tool's secret changed meanwhile is left as
// its new value, already sealed with the current secret).
import { db } from "@/lib/server/db/database";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import { UPSTREAM_SECRET_PURPOSE } from "@/lib/server/upstream/provider-row";
import { SIGNING_KEY_PURPOSE } from "@/lib/server/oauth/signing-keys";
import { IDENTITY_ROOT_PURPOSE } from "./identity-root";
import { resealSecret } from "./secret-box";

export interface TResealReport {
  toolSecrets: number;
  signingKeys: number;
  identityRoots: number;
  upstreamSecrets: number;
}

export async function resealSecrets(): Promise<TResealReport> {
  const report: TResealReport = { toolSecrets: 0, signingKeys: 0, identityRoots: 0, upstreamSecrets: 0 };
  for (const tool of await db().tool.findMany({ select: { id: true, sharedSecretEnc: true } })) {
    const sealed = resealSecret(tool.sharedSecretEnc, LTI_SECRET_PURPOSE);
    if (sealed === null) continue;
    const { count } = await db().tool.updateMany({ where: { id: tool.id, sharedSecretEnc: tool.sharedSecretEnc }, data: { sharedSecretEnc: sealed } });
    report.toolSecrets += count;
  }
  for (const key of await db().signingKey.findMany({ select: { kid: true, privateJwkEnc: true } })) {
    const sealed = resealSecret(key.privateJwkEnc, SIGNING_KEY_PURPOSE);
    if (sealed === null) continue;
    const { count } = await db().signingKey.updateMany({ where: { kid: key.kid, privateJwkEnc: key.privateJwkEnc }, data: { privateJwkEnc: sealed } });
    report.signingKeys += count;
  }
  for (const root of await db().identityRoot.findMany()) {
    const sealed = resealSecret(root.sealed, IDENTITY_ROOT_PURPOSE);
    if (sealed === null) continue;
    const { count } = await db().identityRoot.updateMany({ where: { name: root.name, sealed: root.sealed }, data: { sealed } });
    report.identityRoots += count;
  }
  for (const provider of await db().identityProvider.findMany({ select: { id: true, clientSecretSealed: true } })) {
    const sealed = resealSecret(provider.clientSecretSealed, UPSTREAM_SECRET_PURPOSE);
    if (sealed === null) continue;
    const { count } = await db().identityProvider.updateMany({ where: { id: provider.id, clientSecretSealed: provider.clientSecretSealed }, data: { clientSecretSealed: sealed } });
    report.upstreamSecrets += count;
  }
  return report;
}
