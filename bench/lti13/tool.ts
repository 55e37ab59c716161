// What bench/lti13 and bench/morning share about an LTI 1.3 launch: a copy of a placement's tool
// registered for LTI 1.3 in the bench's own database, and the authentication request the reference
// tool sends back from the login initiation form.
import type { Database } from "@/lib/server/db/database";

/**
 * A copy of the placement's tool with an LTI 1.3 registration, placed at the same school; the new
 * placement's id. `keySuffix` makes the copy's consumer key its own (one copy per placement).
 */
export async function addLti13Copy(db: Pick<Database, "sql">, base: string, placementId: string, keySuffix = "-13"): Promise<string> {
  const [tool] = await db.sql.query<{ id: string }>(
    `INSERT INTO "Tool" (id, "edtechId", title, "shortDescription", "longDescription", "siteUrl", "logoId", "launchUrl", "consumerKey", "sharedSecretEnc", status, "updatedAt")
     SELECT gen_random_uuid(), "edtechId", title || ' (LTI 1.3)', "shortDescription", "longDescription", "siteUrl", "logoId", "launchUrl", "consumerKey" || $2::text, "sharedSecretEnc", status, now()
       FROM "Tool" WHERE id = (SELECT "toolId" FROM "Placement" WHERE id = $1) RETURNING id`,
    [placementId, keySuffix],
  );
  await db.sql.query(
    `INSERT INTO "ToolLti13" ("toolId", "clientId", "deploymentId", "loginUrl", "targetLinkUri", "redirectUris", "jwksUrl", "updatedAt")
     VALUES ($1, gen_random_uuid(), gen_random_uuid(), $2, $3, ARRAY[$3], $4, now())`,
    [tool!.id, `${base}/demo-tool/lti13/login`, `${base}/demo-tool/lti13/launch`, `${base}/.well-known/jwks.json`],
  );
  const [placement] = await db.sql.query<{ id: string }>(
    `INSERT INTO "Placement" (id, "toolId", "institutionId", roles, "customParams", "updatedAt")
     SELECT gen_random_uuid(), $1, "institutionId", '{}', '{}', now() FROM "Placement" WHERE id = $2 RETURNING id`,
    [tool!.id, placementId],
  );
  return placement!.id;
}

const decode = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The hidden fields of a launch page's form (LTI 1.0 launch or LTI 1.3 login initiation), entities decoded. */
export function formFields(page: string): Record<string, string> {
  return Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [decode(m[1]!), decode(m[2]!)]));
}

/** The authentication request the reference tool sends for a login initiation form's `fields`, with its own state and nonce. */
export function authenticationBody(base: string, fields: Record<string, string>, state: string, nonce: string): string {
  if (!fields.lti_message_hint) throw new Error("No login initiation form (no lti_message_hint)");
  return new URLSearchParams({
    scope: "openid", response_type: "id_token", response_mode: "form_post", prompt: "none",
    client_id: fields.client_id!, redirect_uri: `${base}/demo-tool/lti13/launch`,
    login_hint: fields.login_hint!, lti_message_hint: fields.lti_message_hint, state, nonce,
  }).toString();
}
