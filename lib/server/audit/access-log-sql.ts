// The access log's insert (log-access.ts), on its own so a bench can run the same statement
// without the hub's database layer (bench/hot-routes/user-info-floor.ts).
// One statement per batch: the partner's name (kept after the partner is deleted) and, for
// per-person events, the profile's institution are looked up by primary key inside the insert.
// Each row keeps the time it was logged, not the time its batch was written.
export const ACCESS_LOG_INSERT_SQL = `
INSERT INTO "DataAccessLog"
  (id, channel, "applicationId", "applicationName", "toolId", "toolName", "institutionId", "profileId", attributes, filters, status, "eventCount", "createdAt")
SELECT gen_random_uuid(), r.channel::"AccessChannel",
       r."applicationId", a.name, r."toolId", t.title, COALESCE(r."institutionId", p."institutionId"), r."profileId",
       ARRAY(SELECT jsonb_array_elements_text(r.attributes)), r.filters, r.status, r."eventCount", r."createdAt"
  FROM jsonb_to_recordset($1::jsonb) AS r(channel text, "applicationId" uuid, "toolId" uuid, "institutionId" uuid, "profileId" uuid,
                                          attributes jsonb, filters jsonb, status int, "eventCount" int, "createdAt" timestamptz)
  LEFT JOIN "OAuthApplication" a ON a.id = r."applicationId"
  LEFT JOIN "Tool" t ON t.id = r."toolId"
  LEFT JOIN "Profile" p ON p.id = r."profileId"`;
