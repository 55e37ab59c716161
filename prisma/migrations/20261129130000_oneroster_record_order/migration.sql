-- hub:no-transaction
-- Issue #43: a OneRoster page lists each institution's records in sourcedId order and merges the
-- institutions (lib/server/oneroster/read-rostering.ts): one ordered index scan per institution that
-- stops after the page, whatever the number of records
-- (docs/decisions/040-oneroster-as-a-view-of-the-feed.md). Built without blocking writes
-- (docs/decisions/017-migrations-without-blocking-writes.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "ChangeEvent_record_order_idx" ON "ChangeEvent" ("institutionId", entity, "recordId");
-- Its X-Total-Count adds to the maintained live counts the deletes still shown (tobedeleted, 30
-- days): this index holds deletes only, so counting them reads the deletes of the window, not
-- every event of it.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "ChangeEvent_deletes_idx" ON "ChangeEvent" ("institutionId", entity, "occurredAt") WHERE kind = 'delete';
