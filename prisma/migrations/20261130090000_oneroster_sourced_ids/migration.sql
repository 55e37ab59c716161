-- Issue #43 point 5: the OneRoster 1.2 CSV import. A student information system's own sourcedIds
-- mapped to the Hub records an import made of them, per importing institution, so importing the
-- same file again updates instead of duplicating. A new table: nothing existing is rewritten.
CREATE TABLE "OneRosterSourcedId" (
    "id" UUID NOT NULL,
    "institutionId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "sourcedId" TEXT NOT NULL,
    "hubId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OneRosterSourcedId_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "OneRosterSourcedId_institutionId_type_sourcedId_key" ON "OneRosterSourcedId"("institutionId", "type", "sourcedId");

CREATE INDEX "OneRosterSourcedId_hubId_idx" ON "OneRosterSourcedId"("hubId");

ALTER TABLE "OneRosterSourcedId" ADD CONSTRAINT "OneRosterSourcedId_institutionId_fkey" FOREIGN KEY ("institutionId") REFERENCES "Institution"("id") ON DELETE CASCADE ON UPDATE CASCADE;
