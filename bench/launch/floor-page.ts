// What bench/launch and bench/morning need to start the launch floor (floor.mjs): the tool's shared
// secret, decrypted as the hub does, and the floor's page file, taken apart from one of the hub's
// own launch pages (the floor writes the same page around fields it signs afresh).
import { writeFileSync } from "node:fs";
import type { TDatabaseEngine } from "../lib/hub";
import { formFields } from "../lti13/tool";

/** The tool's shared secret for the placement, decrypted as the hub does, for the floor to sign with. */
export async function readToolSecret(env: Record<string, string>, engine: TDatabaseEngine, placementId: string): Promise<string> {
  const { createDatabase } = await import("@/lib/server/db/database");
  const { decryptSecret } = await import("@/lib/server/crypto/secret-box");
  const { LTI_SECRET_PURPOSE } = await import("@/lib/server/tools/lti-secret-purpose");
  const db = createDatabase(engine === "postgres" ? { url: env.DATABASE_URL } : { dataDir: `${env.HUB_DATA_DIR}/pglite` });
  try {
    const [row] = await db.sql.query<{ sharedSecretEnc: string }>(
      `SELECT t."sharedSecretEnc" FROM "Placement" p JOIN "Tool" t ON t.id = p."toolId" WHERE p.id = $1`, [placementId],
    );
    return decryptSecret(row!.sharedSecretEnc, LTI_SECRET_PURPOSE);
  } finally {
    await db.close();
  }
}

/**
 * Writes floor.mjs's LAUNCH_PAGE file from `sample`, one of the hub's launch pages, and the tool's
 * `secret`; the number of the page's fields.
 */
export function writeLaunchFloorPage(sample: string, secret: string, file: string): number {
  const form = /<form id="lti-launch"[^>]*action="([^"]+)"[^>]*>/.exec(sample);
  if (!form) throw new Error(`No launch form in the hub's answer:\n${sample.slice(0, 500)}`);
  const unescape = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  const fields = formFields(sample);
  const params = Object.fromEntries(Object.entries(fields).filter(([name]) => !name.startsWith("oauth_")));
  const firstInput = sample.indexOf("<input");
  const lastInput = sample.lastIndexOf(">", sample.indexOf("<h1>")) + 1;
  writeFileSync(file, JSON.stringify({
    action: unescape(form[1]!), consumerKey: fields.oauth_consumer_key, secret,
    params, before: sample.slice(0, firstInput), after: sample.slice(lastInput),
  }));
  return Object.keys(fields).length;
}
