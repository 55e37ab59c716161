-- The institution owns its access log (privacy issue #14, point 5): a row outlives the
-- application, tool or profile it names, keeping the partner's name as it was, and the log covers
-- every channel through which personal data leaves the hub, by attribute name only.

CREATE TYPE "AccessChannel" AS ENUM ('data_api', 'summary', 'user_info', 'id_token', 'lti_launch');

ALTER TABLE "DataAccessLog" DROP CONSTRAINT "DataAccessLog_applicationId_fkey";
ALTER TABLE "DataAccessLog" ALTER COLUMN "applicationId" DROP NOT NULL;

ALTER TABLE "DataAccessLog"
  ADD COLUMN "channel" "AccessChannel",
  ADD COLUMN "applicationName" TEXT,
  ADD COLUMN "toolId" UUID,
  ADD COLUMN "toolName" TEXT,
  ADD COLUMN "profileId" UUID,
  ADD COLUMN "attributes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- Backfill: every existing row is a Data API or summary read of an application that still exists
-- (until now deleting the application deleted its rows).
UPDATE "DataAccessLog" l
   SET "channel" = CASE WHEN l."endpoint" = 'summary' THEN 'summary'::"AccessChannel" ELSE 'data_api'::"AccessChannel" END,
       "applicationName" = (SELECT a."name" FROM "OAuthApplication" a WHERE a."id" = l."applicationId");

ALTER TABLE "DataAccessLog" ALTER COLUMN "channel" SET NOT NULL;
ALTER TABLE "DataAccessLog" DROP COLUMN "endpoint";
ALTER TABLE "DataAccessLog" ALTER COLUMN "filters" SET DEFAULT '{}';

ALTER TABLE "DataAccessLog" ADD CONSTRAINT "DataAccessLog_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "OAuthApplication"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "DataAccessLog" ADD CONSTRAINT "DataAccessLog_toolId_fkey" FOREIGN KEY ("toolId") REFERENCES "Tool"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "DataAccessLog" ADD CONSTRAINT "DataAccessLog_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE INDEX "DataAccessLog_toolId_createdAt_idx" ON "DataAccessLog"("toolId", "createdAt");
CREATE INDEX "DataAccessLog_profileId_createdAt_idx" ON "DataAccessLog"("profileId", "createdAt");
