-- hub:no-transaction
-- Issue #24: indexes the Data API reads in (txid, seq) order, built without blocking writes
-- (docs/decisions/017-migrations-without-blocking-writes.md). Each statement runs on its own,
-- outside a transaction block; an INVALID leftover of a failed build is dropped and rebuilt.

-- user_id: a person's events in feed order. profileIds holds one profile, or two for a guardian
-- link (guardian, student), so two ordered scans merged give every event of the profile; the
-- GIN index on profileIds had to fetch all of them and sort before the LIMIT.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "ChangeEvent_profile1_txid_seq_idx" ON "ChangeEvent" (("profileIds"[1]), "txid", "seq");
CREATE INDEX CONCURRENTLY IF NOT EXISTS "ChangeEvent_profile2_txid_seq_idx" ON "ChangeEvent" (("profileIds"[2]), "txid", "seq") WHERE "profileIds"[2] IS NOT NULL;

-- The GIN index on profileIds served only user_id; every event write paid for it.
DROP INDEX CONCURRENTLY IF EXISTS "ChangeEvent_profileIds_idx";
