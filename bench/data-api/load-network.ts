// The load network of `npm run seed:large` (the largest subtree), with the demo application
// linked to it and given access there, so `demo-api-key` reads it. Shared by the Data API benches.
import type pg from "pg";

export interface TLoadNetwork {
  id: string;
  name: string;
  schools: string[];
}

export async function loadNetwork(pool: pg.Pool): Promise<TLoadNetwork> {
  const { rows: [network] } = await pool.query<TLoadNetwork>(
    `SELECT n.id, n.name, array_agg(s.id) AS schools FROM "Institution" n JOIN "Institution" s ON s."parentId" = n.id
      WHERE n.kind = 'network' GROUP BY n.id ORDER BY count(*) DESC, n."createdAt" DESC LIMIT 1`,
  );
  if (!network) throw new Error("No network found: run npm run seed:large first (see docs/performance.md).");
  await linkDemoApp(pool, network.id);
  return network;
}

/**
 * Links demo-app (the demo seed's application, key `demo-api-key`) to `networkId` and gives it
 * access there, OneRoster included; its feed starts at that grant (ApplicationAccess.grantedTxid, decision 016).
 */
export async function linkDemoApp(pool: pg.Pool, networkId: string): Promise<void> {
  const { rows: [app] } = await pool.query<{ id: string; edtechId: string }>(`SELECT a.id, a."edtechId" FROM "OAuthApplication" a WHERE a."clientId" = 'demo-app'`);
  if (!app) throw new Error("demo-app not found: the bench database needs the demo seed (npm start's prepare step).");
  await pool.query(`INSERT INTO "EdtechLink" (id, "institutionId", "edtechId") VALUES (gen_random_uuid(), $1, $2) ON CONFLICT DO NOTHING`, [networkId, app.edtechId]);
  await pool.query(
    `INSERT INTO "ApplicationAccess" (id, "institutionId", "applicationId", "allowedAttributes", "anonymizedAttributes", "oneRoster", "updatedAt")
     VALUES (gen_random_uuid(), $1, $2, ARRAY['nome_usuario','idade','email_usuario'], ARRAY['email_usuario'], true, now()) ON CONFLICT DO NOTHING`,
    [networkId, app.id],
  );
}
