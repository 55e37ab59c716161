-- hub:no-transaction
-- Issue #24: the hash indexes of 20261126140200_people_hash_indexes read one bucket page per probe
-- only while no bucket overflows. PostgreSQL's hash index grows by linear hashing: it splits one
-- bucket at a time, so in the second half of each doubling the buckets not yet split hold up to
-- twice the target fill. At the default fillfactor (75, about 307 entries per bucket) that is up to
-- 614 entries, more than a page holds (about 407): `pgstathashindex` showed 729 overflow pages
-- among 3,367 buckets at 1,033,441 profiles, 0 at 10,441, and a page's people lookup read 11-17%
-- more buffers at a million students than at ten thousand. At fillfactor 35 (about 143 entries per
-- bucket) an unsplit bucket holds at most about 287, seven standard deviations below a full page:
-- no overflow page at any size (random ids inserted 26,000 at a time up to 1,040,000: 0 overflow
-- pages after every batch; at fillfactor 45 one appeared), and a probe reads one bucket page
-- whatever the table's size. The price is space: about 2.1 times the bucket pages (56 MB per
-- index at a million rows). docs/decisions/032-hash-indexes-with-room.md.
-- New indexes are built beside the old ones, then the old ones dropped, without blocking writes
-- (docs/decisions/017-migrations-without-blocking-writes.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "Profile_id_hash_sparse_idx" ON "Profile" USING hash ("id") WITH (fillfactor = 35);
CREATE INDEX CONCURRENTLY IF NOT EXISTS "Person_id_hash_sparse_idx" ON "Person" USING hash ("id") WITH (fillfactor = 35);
DROP INDEX CONCURRENTLY IF EXISTS "Profile_id_hash_idx";
DROP INDEX CONCURRENTLY IF EXISTS "Person_id_hash_idx";
