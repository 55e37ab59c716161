-- hub:no-transaction
-- Issue #24: the counts below an application's grant G are derived from the maintained counts
-- (20261128120100_live_counts) and corrected by the events written since G, among them the events
-- below G that a transaction since G superseded: found by this index, as many as the changes since
-- the grant, whatever the history before it. Built without blocking writes
-- (docs/decisions/017-migrations-without-blocking-writes.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "ChangeEvent_superseded_idx" ON "ChangeEvent" ("institutionId", "supersededTxid") WHERE "supersededTxid" IS NOT NULL;
