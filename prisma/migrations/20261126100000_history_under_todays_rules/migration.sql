-- Erasure that erases, and history under today's rules (privacy issue #14, points 3 and 4;
-- docs/decisions/016-history-under-todays-rules.md).

-- The Data API's horizon (docs/decisions/003-gap-free-paging.md) as one function, read by the
-- feed (lib/server/data-api/query-events.ts, HORIZON_SQL) and by ApplicationAccess."grantedTxid"'s
-- default: the oldest transaction of this database still running at the statement's snapshot, or
-- the snapshot's xmax when none is. Every transaction with a smaller id had ended; every one that
-- had not, or starts later, has a larger one. backend_xid is the 32-bit form of the xid8.
-- STABLE, not VOLATILE: a volatile function would take a newer snapshot than the statement that
-- calls it, and a horizon above an event that statement could not see breaks gap-free paging.
CREATE FUNCTION "hub_feed_horizon"() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT COALESCE(
    (SELECT min(x) FROM pg_snapshot_xip(s.snap) x
      WHERE x::text::bigint % 4294967296 NOT IN (
        SELECT a.backend_xid::text::bigint FROM pg_stat_get_activity(NULL) a
        WHERE a.backend_xid IS NOT NULL AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))),
    pg_snapshot_xmax(s.snap))::text::bigint
  FROM (SELECT pg_current_snapshot() AS snap) s
$$;

-- The event log keeps no personal value: a usuario record is reduced to its non-personal fields
-- (the Data API joins the person's current values when it reads).
UPDATE "ChangeEvent"
   SET "record" = "record" - ARRAY['nome_usuario', 'idade', 'cpf', 'email_usuario', 'telefone']::text[]
 WHERE "entity" = 'usuario';

-- "changed": the fields an update changed (empty: unknown, for every event written before this
-- migration and for other kinds). "supersededTxid": the transaction that recorded the next event
-- of the same record (null while the event is the record's latest).
ALTER TABLE "ChangeEvent" ADD COLUMN "changed" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[], ADD COLUMN "supersededTxid" BIGINT;

UPDATE "ChangeEvent" e
   SET "supersededTxid" = n."next"
  FROM (SELECT "seq", lead("txid") OVER (PARTITION BY "entity", "recordId" ORDER BY "seq") AS "next" FROM "ChangeEvent") n
 WHERE n."seq" = e."seq" AND n."next" IS NOT NULL;

CREATE INDEX "ChangeEvent_recordId_idx" ON "ChangeEvent"("recordId");

-- Where an application's access began. Rows that exist today keep the whole history (0); new
-- rows take the horizon of the transaction that creates them.
ALTER TABLE "ApplicationAccess" ADD COLUMN "grantedTxid" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "ApplicationAccess" ALTER COLUMN "grantedTxid" SET DEFAULT "hub_feed_horizon"();

-- Sign-in throttling keys named the login (an e-mail or a CPF) in clear; they now carry an HMAC
-- of it (lib/server/auth/throttle.ts). The old counters last 15 minutes: drop them.
DELETE FROM "RateLimit" WHERE "key" LIKE 'signin:login:%';
