-- hub:no-transaction
-- Issue #24: a Data API page looks up the current values of its people by id after it is cut
-- (query-events.ts, PEOPLE_CTE): a few hundred probes of Profile and Person per page. A btree probe
-- reads one page per level, and the levels grow with the tables; a hash probe reads its bucket
-- (about one page) whatever their size. Measured at 100,000 students: 3,189 → 1,421 buffers for
-- the people of a 1,000-event page (docs/performance.md). Built without blocking writes
-- (docs/decisions/017-migrations-without-blocking-writes.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "Profile_id_hash_idx" ON "Profile" USING hash ("id");
CREATE INDEX CONCURRENTLY IF NOT EXISTS "Person_id_hash_idx" ON "Person" USING hash ("id");
