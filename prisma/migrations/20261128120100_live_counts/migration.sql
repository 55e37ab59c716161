-- Issue #24: a late grant's first summary without a scan of the history below the grant.
-- (docs/decisions/018-feed-clock-and-maintained-counts.md, "Later: the counts below a grant")
--
-- An application granted at horizon G is shown, of the events below G, those still current at G
-- and not deletes (decision 016). Per key, "hub_grant_counts" computed once per (institution, G)
-- the events below G ("below") and those of them current at G ("live") by reading every event of
-- the institution below G: 2.4 s for a network at a million students. Now the counts keep, beside
-- each key's number of events, its number of events current now ("live": not a delete and not yet
-- superseded), and for a grant G, in one statement (one snapshot):
--   below = Σ n    - the events since G
--   live  = Σ live - the events since G that are current
--                  + the events below G superseded since G (current at G, no longer now)
-- Every transaction below G had ended when G was taken, and every transaction that supersedes an
-- event later has a txid at or above G, so what is below G changes only by a delete or an update
-- of a counted column, which drops the kept counts as before. The corrections read the events
-- written and superseded since G (ChangeEvent_superseded_idx, the previous migration): a grant's
-- first summary costs the changes since the grant, not the history before it.

-- Writers of events wait until this migration commits: no event is counted twice or missed between
-- the new triggers and the backfill below.
LOCK TABLE "ChangeEvent" IN SHARE ROW EXCLUSIVE MODE;

ALTER TABLE "EventCount" ADD COLUMN "live" BIGINT NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION "hub_fold_counts"(insts UUID[]) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(insts) = 0 OR current_setting('transaction_isolation') <> 'read committed' OR NOT pg_try_advisory_xact_lock(72616102) THEN
    RETURN false;
  END IF;
  WITH d AS (DELETE FROM "EventCount" c WHERE c."institutionId" = ANY(insts) RETURNING c.*)
  INSERT INTO "EventCount" ("institutionId", entity, kind, "periodCode", role, "hiddenMask", n, live)
  SELECT "institutionId", entity, kind, "periodCode", role, "hiddenMask", sum(n), sum(live)
    FROM d GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0 OR sum(live) <> 0;
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
  INSERT INTO "EventCount" ("institutionId", entity, kind, "periodCode", role, "hiddenMask", n, live)
  SELECT n."institutionId", n.entity, n.kind, n."periodCode", COALESCE(n.record->>'perfil', ''), "hub_personal_mask"(n.changed), count(*),
         count(*) FILTER (WHERE n.kind <> 'delete' AND n."supersededTxid" IS NULL)
    FROM new_rows n GROUP BY 1, 2, 3, 4, 5, 6;
  -- Fold the institutions written now whose (transaction, institution) pair draws 1 in 4.
  PERFORM "hub_fold_counts"(ARRAY(
    SELECT d.i FROM (SELECT DISTINCT n."institutionId" AS i FROM new_rows n) d WHERE hashtext(d.i::text || ':' || pg_current_xact_id()::text) & 3 = 0));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "hub_events_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "EventCount" ("institutionId", entity, kind, "periodCode", role, "hiddenMask", n, live)
  SELECT o."institutionId", o.entity, o.kind, o."periodCode", COALESCE(o.record->>'perfil', ''), "hub_personal_mask"(o.changed), -count(*),
         -count(*) FILTER (WHERE o.kind <> 'delete' AND o."supersededTxid" IS NULL)
    FROM old_rows o GROUP BY 1, 2, 3, 4, 5, 6;
  DELETE FROM "GrantCount" WHERE "institutionId" IN (SELECT DISTINCT "institutionId" FROM old_rows);
  RETURN NULL;
END $$;

-- Updates: the writers' supersede (recordChanges marks the events a new one supersedes) and, in
-- principle, a migration's change of a counted column. Once per statement, from its transition
-- tables (a column list is not allowed beside them): the keys' counts move, and the counts kept
-- for a grant are dropped when what lies below the grant may have changed.
DROP TRIGGER "ChangeEvent_updated" ON "ChangeEvent";
DROP FUNCTION "hub_event_updated"();
CREATE FUNCTION "hub_events_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "EventCount" ("institutionId", entity, kind, "periodCode", role, "hiddenMask", n, live)
  SELECT d.i, d.entity, d.kind, d.p, d.role, d.mask, sum(d.n), sum(d.live) FROM (
    SELECT o."institutionId" AS i, o.entity, o.kind, o."periodCode" AS p, COALESCE(o.record->>'perfil', '') AS role, "hub_personal_mask"(o.changed) AS mask,
           -1 AS n, CASE WHEN o.kind <> 'delete' AND o."supersededTxid" IS NULL THEN -1 ELSE 0 END AS live
      FROM old_rows o
    UNION ALL
    SELECT n."institutionId", n.entity, n.kind, n."periodCode", COALESCE(n.record->>'perfil', ''), "hub_personal_mask"(n.changed),
           1, CASE WHEN n.kind <> 'delete' AND n."supersededTxid" IS NULL THEN 1 ELSE 0 END
      FROM new_rows n
  ) d GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d.n) <> 0 OR sum(d.live) <> 0;
  -- A supersede by a writer sets a txid at or above every grant: the counts below a grant stay.
  DELETE FROM "GrantCount" gc USING old_rows o JOIN new_rows n ON n.seq = o.seq
   WHERE gc."institutionId" IN (o."institutionId", n."institutionId")
     AND ((o."institutionId", o.entity, o.kind, o."periodCode", o.record->>'perfil', o.changed, o.txid)
            IS DISTINCT FROM (n."institutionId", n.entity, n.kind, n."periodCode", n.record->>'perfil', n.changed, n.txid)
          OR (o."supersededTxid" IS DISTINCT FROM n."supersededTxid" AND LEAST(o."supersededTxid", n."supersededTxid") < gc."grantedTxid"));
  RETURN NULL;
END $$;
CREATE TRIGGER "ChangeEvent_updated" AFTER UPDATE ON "ChangeEvent" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "hub_events_updated"();

-- The counts below G from the maintained counts, corrected by the events since G, in one
-- statement (one snapshot: every event it reads and every count agree).
CREATE OR REPLACE FUNCTION "hub_grant_counts"(inst UUID, g BIGINT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  created BOOLEAN;
BEGIN
  INSERT INTO "GrantCount" ("institutionId", "grantedTxid") VALUES (inst, g) ON CONFLICT DO NOTHING RETURNING true INTO created;
  IF created THEN
    INSERT INTO "GrantCountRow" ("institutionId", "grantedTxid", entity, kind, "periodCode", role, "hiddenMask", below, live)
    SELECT inst, g, d.entity, d.kind, d.p, d.role, d.mask, sum(d.below), sum(d.live) FROM (
      SELECT c.entity, c.kind, c."periodCode" AS p, c.role, c."hiddenMask" AS mask, c.n AS below, c.live
        FROM "EventCount" c WHERE c."institutionId" = inst
      UNION ALL
      SELECT e.entity, e.kind, e."periodCode", COALESCE(e.record->>'perfil', ''), "hub_personal_mask"(e.changed),
             -1, CASE WHEN e.kind <> 'delete' AND e."supersededTxid" IS NULL THEN -1 ELSE 0 END
        FROM "ChangeEvent" e WHERE e."institutionId" = inst AND e.txid >= g
      UNION ALL
      SELECT e.entity, e.kind, e."periodCode", COALESCE(e.record->>'perfil', ''), "hub_personal_mask"(e.changed), 0, 1
        FROM "ChangeEvent" e WHERE e."institutionId" = inst AND e."supersededTxid" >= g AND e.txid < g AND e.kind <> 'delete'
    ) d GROUP BY 3, 4, 5, 6, 7 HAVING sum(d.below) <> 0 OR sum(d.live) <> 0;
  END IF;
END $$;

-- The live counts of the events already there (the log read once, as the counts' first migration
-- did: about a second per million events).
INSERT INTO "EventCount" ("institutionId", entity, kind, "periodCode", role, "hiddenMask", n, live)
SELECT e."institutionId", e.entity, e.kind, e."periodCode", COALESCE(e.record->>'perfil', ''), "hub_personal_mask"(e.changed), 0, count(*)
  FROM "ChangeEvent" e WHERE e.kind <> 'delete' AND e."supersededTxid" IS NULL GROUP BY 1, 2, 3, 4, 5, 6;
