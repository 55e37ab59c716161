-- The Data API's horizons on a read replica (issue #44; docs/decisions/042-read-replicas.md).

-- On a hot standby, pg_current_snapshot() lists no running xid (PostgreSQL keeps a recovery
-- snapshot's xids as subtransactions), so the primary's formula would answer the snapshot's xmax,
-- above transactions still running, and a page would skip their events. pg_stat_get_activity
-- there shows the standby's own sessions, not the primary's. The snapshot's xmin is correct: the
-- oldest transaction of the cluster not yet ended in what the standby has replayed. Every running
-- xid counts as ours (of any database): a horizon can only be later, never skip.
CREATE OR REPLACE FUNCTION "hub_feed_horizon"() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN pg_is_in_recovery() THEN pg_snapshot_xmin(s.snap)::text::bigint ELSE COALESCE(
    (SELECT min(x) FROM pg_snapshot_xip(s.snap) x
      WHERE x::text::bigint % 4294967296 NOT IN (
        SELECT a.backend_xid::text::bigint FROM pg_stat_get_activity(NULL) a
        WHERE a.backend_xid IS NOT NULL AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))),
    pg_snapshot_xmax(s.snap))::text::bigint END
  FROM (SELECT pg_current_snapshot() AS snap) s
$$;

-- The primary's beat, written every second by the hubs that have replicas (lib/server/db/replicas.ts):
-- when, and the start of the oldest transaction of this database then running ("oldestStart").
-- Every transaction still running when a standby has replayed the beat started at oldestStart or
-- later (it was running at the beat, or began after it). A standby cannot see the primary's
-- sessions, so it reads decision 013's moment T from here; and now() − "at" is its lag.
CREATE TABLE "FeedBeat" (
  "id" SMALLINT PRIMARY KEY CHECK ("id" = 1),
  "at" TIMESTAMPTZ NOT NULL,
  "oldestStart" TIMESTAMPTZ NOT NULL
);

-- now() is this transaction's start, itself among the sessions read: never later than the oldest.
-- A later beat of another hub instance is not overwritten by an earlier one.
CREATE FUNCTION "hub_feed_beat"() RETURNS void LANGUAGE sql VOLATILE AS $$
  INSERT INTO "FeedBeat" ("id", "at", "oldestStart")
  SELECT 1, clock_timestamp(), LEAST(min(a.xact_start), now()) FROM pg_stat_get_activity(NULL) a
   WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND a.xact_start IS NOT NULL
  ON CONFLICT ("id") DO UPDATE SET "at" = EXCLUDED."at", "oldestStart" = EXCLUDED."oldestStart" WHERE "FeedBeat"."at" < EXCLUDED."at"
$$;

-- Decision 013's moment T: every transaction that started before it has ended, every one still to
-- commit stamps its events at T or later. On the primary, the oldest running transaction of this
-- database (or now) less a second; on a standby, the replayed beat's oldestStart less the same
-- second (-infinity before any beat: nothing is time-safe yet, a read waits, never skips). STABLE:
-- read in the calling statement's snapshot, the same one its horizon comes from.
CREATE FUNCTION "hub_time_safe_moment"() RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN pg_is_in_recovery()
    THEN COALESCE((SELECT b."oldestStart" FROM "FeedBeat" b WHERE b."id" = 1), '-infinity'::timestamptz)
    ELSE (SELECT LEAST(min(a.xact_start), now()) FROM pg_stat_get_activity(NULL) a
           WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND a.xact_start IS NOT NULL)
  END - interval '1 second'
$$;
