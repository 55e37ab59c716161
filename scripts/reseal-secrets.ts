// `npm run reseal-secrets`: after a HUB_SECRET rotation, seals again with the current secret every
// value an older one sealed (LTI shared secrets, token-signing keys, identity roots), so that the
// old secret can be removed from HUB_PREVIOUS_SECRETS. `npm start` does the same on every start;
// this is for deployments that start server.mjs themselves. Safe to run while instances serve.
import { database } from "@/lib/server/db/database";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { resealSecrets } from "@/lib/server/crypto/reseal-secrets";

async function main() {
  await loadIdentityRoots();
  const report = await resealSecrets();
  console.log(`re-sealed with the current HUB_SECRET: ${report.toolSecrets} LTI secrets, ${report.signingKeys} signing keys, ${report.identityRoots} identity roots`);
  await database().close();
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
