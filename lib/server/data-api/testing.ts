// Test fixtures for the Data API: partners (edtech + OAuth application + API key), links and
// access rows. School data itself is always written through lib/server/school-data.
import { randomBytes } from "node:crypto";
import { database, db } from "@/lib/db";
import { createApiKey } from "@/lib/server/api-keys/create-api-key";
import type { TPersonalAttribute } from "@/lib/validations/data-api";
import { HORIZON_SQL } from "./query-events";

export interface TPartner {
  edtechId: string;
  applicationId: string;
  key: string;
}

export async function createPartner(name: string, edtechId?: string): Promise<TPartner> {
  const suffix = randomBytes(4).toString("hex");
  const edtech = edtechId ? { id: edtechId } : await db().edtech.create({ data: { name, slug: `${name.toLowerCase().replace(/\W+/g, "-")}-${suffix}` } });
  const application = await db().oAuthApplication.create({
    data: {
      edtechId: edtech.id,
      name: `${name} app`,
      clientId: `client-${suffix}`,
      clientSecretHash: "0".repeat(64),
      redirectUris: ["https://app.example/callback"],
    },
  });
  const { key } = await createApiKey({ applicationId: application.id, name: "test" });
  return { edtechId: edtech.id, applicationId: application.id, key };
}

export async function linkEdtech(institutionId: string, edtechId: string): Promise<void> {
  await db().edtechLink.create({ data: { institutionId, edtechId } });
}

/**
 * An access row. Fixtures write their school data first and grant afterwards, yet check the
 * whole history: by default the row reads as one that predates the data (`since: "start"`,
 * grantedTxid 0, as every row created before the column existed). `since: "now"` is a grant
 * as /gestao makes one: its feed starts at the current state (docs/decisions/016).
 */
export async function grantAccess(
  institutionId: string,
  applicationId: string,
  rules: { allowed: TPersonalAttribute[]; anonymized: TPersonalAttribute[] },
  options: { since?: "start" | "now" } = {},
): Promise<void> {
  await db().applicationAccess.create({
    data: {
      institutionId,
      applicationId,
      allowedAttributes: rules.allowed,
      anonymizedAttributes: rules.anonymized,
      ...(options.since === "now" ? {} : { grantedTxid: 0n }),
    },
  });
}

/**
 * Waits until every event written so far is below the Data API's horizon (HORIZON_SQL), i.e.
 * visible to it. A transaction of this database still running (an access-log flush, a test that
 * holds one open on purpose) delays it for a moment. Immediate on PGlite.
 */
export async function waitForVisibleEvents(timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await database().sql.query<{ visible: boolean }>(
      `WITH h AS MATERIALIZED (${HORIZON_SQL}) SELECT coalesce(max(txid), 0) < (SELECT xmin FROM h) AS visible FROM "ChangeEvent"`,
    );
    if (row?.visible) return;
    if (Date.now() > deadline) throw new Error("events still behind the snapshot horizon: a transaction is held open somewhere");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
