-- Issue #43: the OneRoster 1.2 Rostering read API (docs/decisions/039-oneroster-token-endpoint.md).
-- A sharing rule row (ApplicationAccess) enables OneRoster for its application; like the attributes
-- it is inherited down the tree and the nearest rule row decides. Existing rows keep meaning what
-- they meant: OneRoster off.
--
-- Neither statement blocks writes for longer than a catalog update (docs/decisions/017): since
-- PostgreSQL 11 a column added with a constant default is stored in the catalog, not written into
-- every row, and adding an enum value only inserts a pg_enum row. ADD VALUE may run inside the
-- migration's transaction (PostgreSQL 12+); nothing here uses the new value in that transaction.
ALTER TABLE "ApplicationAccess" ADD COLUMN "oneRoster" BOOLEAN NOT NULL DEFAULT false;

-- The access log's channel for reads through the OneRoster API.
ALTER TYPE "AccessChannel" ADD VALUE IF NOT EXISTS 'oneroster';
