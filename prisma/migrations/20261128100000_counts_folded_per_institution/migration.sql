-- Issue #24: an institution's count rows (EventCount, deltas) stay few however long its history.
-- (docs/decisions/018-feed-clock-and-maintained-counts.md, "Folding")
--
-- Before, a transaction whose xid was a multiple of 32 folded the institutions it wrote. A writer
-- that takes institutions in turn (an import per school, the growth benchmark's seeder: one
-- transaction per school, xids one apart) then folds the same institutions every time and never
-- the others, whose delta rows grew with their history (261 rows for a school at a million
-- students, against 5 keys). Now:
--   1. each (transaction, institution) pair draws its own 1-in-4 chance, so every institution
--      written is folded about every 4 of its own writing transactions: the table holds about
--      4 writes' deltas per institution beyond its keys, and stays a few pages (with 1 in 32 it
--      grew to 21 pages during the growth benchmark's seeding, read whole by the summary);
--   2. "hub_fold_counts" folds given institutions on demand: the summary calls it after a read
--      that met many more rows than keys (read-maintained-counts.ts), so what a summary reads
--      stays about one row per key whatever the writers did.

-- Folds the deltas of `insts` into one row per key, if no other folder is at work (try-lock, held
-- to the end of the transaction) and under READ COMMITTED (each statement sees what an earlier
-- folder committed; with a transaction-wide snapshot, deleting rows another folder deleted would
-- be a serialization error). Whether it folded.
CREATE FUNCTION "hub_fold_counts"(insts UUID[]) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(insts) = 0 OR current_setting('transaction_isolation') <> 'read committed' OR NOT pg_try_advisory_xact_lock(72616102) THEN
    RETURN false;
  END IF;
  WITH d AS (DELETE FROM "EventCount" c WHERE c."institutionId" = ANY(insts) RETURNING c.*)
  INSERT INTO "EventCount" SELECT "institutionId", entity, kind, "periodCode", role, "hiddenMask", sum(n)
    FROM d GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0;
  RETURN true;
END $$;

CREATE OR REPLACE FUNCTION "hub_events_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- At most about one clock entry per 100 ms: any entry is a correct floor, a later one only a
  -- tighter one, so skipping (or two writers both writing) costs a min_date read at most the
  -- events of 100 ms more, while the map grows with time, not with the number of writes.
  IF NOT EXISTS (SELECT 1 FROM "FeedClock" c WHERE c."at" > clock_timestamp() - interval '100 milliseconds') THEN
    INSERT INTO "FeedClock" ("at", "txid") SELECT clock_timestamp(), pg_snapshot_xmax(pg_current_snapshot())::text::bigint;
  END IF;
  INSERT INTO "EventCount"
  SELECT n."institutionId", n.entity, n.kind, n."periodCode", COALESCE(n.record->>'perfil', ''), "hub_personal_mask"(n.changed), count(*)
    FROM new_rows n GROUP BY 1, 2, 3, 4, 5, 6;
  -- Fold the institutions written now whose (transaction, institution) pair draws 1 in 4.
  PERFORM "hub_fold_counts"(ARRAY(
    SELECT d.i FROM (SELECT DISTINCT n."institutionId" AS i FROM new_rows n) d WHERE hashtext(d.i::text || ':' || pg_current_xact_id()::text) & 3 = 0));
  RETURN NULL;
END $$;
