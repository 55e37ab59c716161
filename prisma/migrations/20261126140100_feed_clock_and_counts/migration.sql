-- Issue #24: the Data API's cost independent of the history's length.
-- (docs/decisions/018-feed-clock-and-maintained-counts.md)

-- 1. The feed clock: a date → position map for min_date. A statement that writes events adds
-- (at, txid) unless an entry of the last 100 ms exists: `txid` is the xmax of a snapshot taken before the clock was read at `at`, so every
-- transaction that starts at `at` or later gets a larger xid, and its events (occurredAt = the
-- transaction's start) sort after `txid`. A read with min_date starts its ordered scan at the
-- txid of the last entry at or before min_date: one index probe, whatever the history's length.
CREATE TABLE "FeedClock" (
  "at"   TIMESTAMPTZ NOT NULL,
  "txid" BIGINT NOT NULL
);
CREATE INDEX "FeedClock_at_idx" ON "FeedClock" ("at");
INSERT INTO "FeedClock" ("at", "txid") SELECT clock_timestamp(), pg_snapshot_xmax(pg_current_snapshot())::text::bigint;

-- 2. Event counts maintained with the log, for the summary. Rows are deltas appended by the
-- triggers below (never updated in place, so concurrent writers never wait on each other) and
-- folded into one row per key from time to time; a key's count is the sum of its rows.
-- "role" is the record's perfil ('' when none) and "hiddenMask" the personal attributes an update
-- changed when it changed nothing else (bit i = PERSONAL_ATTRIBUTES[i]; 0: `changed` is empty or
-- names another field; only updates have a `changed`),
-- the two facts an application's view reads to decide whether an update is delivered.
CREATE FUNCTION "hub_personal_mask"(changed TEXT[]) RETURNS SMALLINT LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN cardinality(changed) = 0
                OR NOT (changed <@ ARRAY['nome_usuario', 'idade', 'cpf', 'email_usuario', 'telefone']::text[]) THEN 0
              ELSE ((CASE WHEN 'nome_usuario' = ANY(changed) THEN 1 ELSE 0 END) | (CASE WHEN 'idade' = ANY(changed) THEN 2 ELSE 0 END)
                  | (CASE WHEN 'cpf' = ANY(changed) THEN 4 ELSE 0 END) | (CASE WHEN 'email_usuario' = ANY(changed) THEN 8 ELSE 0 END)
                  | (CASE WHEN 'telefone' = ANY(changed) THEN 16 ELSE 0 END)) END::smallint
$$;

CREATE TABLE "EventCount" (
  "institutionId" UUID NOT NULL,
  "entity"        "EntityName" NOT NULL,
  "kind"          "ChangeKind" NOT NULL,
  "periodCode"    TEXT,
  "role"          TEXT NOT NULL,
  "hiddenMask"    SMALLINT NOT NULL,
  "n"             BIGINT NOT NULL
);
CREATE INDEX "EventCount_institutionId_idx" ON "EventCount" ("institutionId");

-- 3. What an application granted at horizon G is shown of the events below G is fixed once G is
-- reached (decision 016): per key, the events below G ("below") and those of them still current
-- at G and not deletes ("live"). Computed once per (institution, G), on the first summary that
-- needs it, and kept; dropped if an event of the institution is ever updated or deleted.
CREATE TABLE "GrantCount" (
  "institutionId" UUID NOT NULL,
  "grantedTxid"   BIGINT NOT NULL,
  CONSTRAINT "GrantCount_pkey" PRIMARY KEY ("institutionId", "grantedTxid")
);
CREATE TABLE "GrantCountRow" (
  "institutionId" UUID NOT NULL,
  "grantedTxid"   BIGINT NOT NULL,
  "entity"        "EntityName" NOT NULL,
  "kind"          "ChangeKind" NOT NULL,
  "periodCode"    TEXT,
  "role"          TEXT NOT NULL,
  "hiddenMask"    SMALLINT NOT NULL,
  "below"         BIGINT NOT NULL,
  "live"          BIGINT NOT NULL,
  CONSTRAINT "GrantCountRow_grant_fkey" FOREIGN KEY ("institutionId", "grantedTxid") REFERENCES "GrantCount" ("institutionId", "grantedTxid") ON DELETE CASCADE
);
CREATE INDEX "GrantCountRow_grant_idx" ON "GrantCountRow" ("institutionId", "grantedTxid");

CREATE FUNCTION "hub_grant_counts"(inst UUID, g BIGINT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  created BOOLEAN;
BEGIN
  INSERT INTO "GrantCount" ("institutionId", "grantedTxid") VALUES (inst, g) ON CONFLICT DO NOTHING RETURNING true INTO created;
  IF created THEN
    INSERT INTO "GrantCountRow"
    SELECT inst, g, e.entity, e.kind, e."periodCode", COALESCE(e.record->>'perfil', ''), "hub_personal_mask"(e.changed),
           count(*), count(*) FILTER (WHERE e.kind <> 'delete' AND (e."supersededTxid" IS NULL OR e."supersededTxid" >= g))
      FROM "ChangeEvent" e WHERE e."institutionId" = inst AND e.txid < g
     GROUP BY 3, 4, 5, 6, 7;
  END IF;
END $$;

CREATE FUNCTION "hub_events_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  -- Fold the deltas of the institutions written now, one transaction in 32, one folder at a time.
  -- Only under READ COMMITTED: there each statement sees what an earlier folder committed; with a
  -- transaction-wide snapshot, deleting rows another folder deleted would be a serialization error.
  IF pg_current_xact_id()::text::bigint % 32 = 0 AND current_setting('transaction_isolation') = 'read committed'
     AND pg_try_advisory_xact_lock(72616102) THEN
    WITH d AS (DELETE FROM "EventCount" c WHERE c."institutionId" IN (SELECT DISTINCT "institutionId" FROM new_rows) RETURNING c.*)
    INSERT INTO "EventCount" SELECT "institutionId", entity, kind, "periodCode", role, "hiddenMask", sum(n)
      FROM d GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "hub_events_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "EventCount"
  SELECT o."institutionId", o.entity, o.kind, o."periodCode", COALESCE(o.record->>'perfil', ''), "hub_personal_mask"(o.changed), -count(*)
    FROM old_rows o GROUP BY 1, 2, 3, 4, 5, 6;
  DELETE FROM "GrantCount" WHERE "institutionId" IN (SELECT DISTINCT "institutionId" FROM old_rows);
  RETURN NULL;
END $$;

-- An update of a counted column (none of the hub's writers does one; migrations might).
CREATE FUNCTION "hub_event_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "EventCount" VALUES
    (OLD."institutionId", OLD.entity, OLD.kind, OLD."periodCode", COALESCE(OLD.record->>'perfil', ''), "hub_personal_mask"(OLD.changed), -1),
    (NEW."institutionId", NEW.entity, NEW.kind, NEW."periodCode", COALESCE(NEW.record->>'perfil', ''), "hub_personal_mask"(NEW.changed), 1);
  DELETE FROM "GrantCount" WHERE "institutionId" IN (OLD."institutionId", NEW."institutionId");
  RETURN NULL;
END $$;

CREATE FUNCTION "hub_events_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "EventCount";
  DELETE FROM "GrantCount";
  RETURN NULL;
END $$;

CREATE TRIGGER "ChangeEvent_inserted" AFTER INSERT ON "ChangeEvent" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "hub_events_inserted"();
CREATE TRIGGER "ChangeEvent_deleted" AFTER DELETE ON "ChangeEvent" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "hub_events_deleted"();
CREATE TRIGGER "ChangeEvent_updated" AFTER UPDATE OF "institutionId", "entity", "kind", "periodCode", "record", "changed" ON "ChangeEvent"
  FOR EACH ROW WHEN (OLD."institutionId" IS DISTINCT FROM NEW."institutionId" OR OLD.entity IS DISTINCT FROM NEW.entity OR OLD.kind IS DISTINCT FROM NEW.kind
    OR OLD."periodCode" IS DISTINCT FROM NEW."periodCode" OR OLD.record->>'perfil' IS DISTINCT FROM NEW.record->>'perfil' OR OLD.changed IS DISTINCT FROM NEW.changed)
  EXECUTE FUNCTION "hub_event_updated"();
CREATE TRIGGER "ChangeEvent_truncated" AFTER TRUNCATE ON "ChangeEvent" FOR EACH STATEMENT EXECUTE FUNCTION "hub_events_truncated"();

-- The counts of the events already there. CREATE TRIGGER above holds a lock that makes writers of
-- events wait until this migration commits, so no event is counted twice or missed; the GROUP BY
-- reads the log once (about a second per million events).
INSERT INTO "EventCount"
SELECT e."institutionId", e.entity, e.kind, e."periodCode", COALESCE(e.record->>'perfil', ''), "hub_personal_mask"(e.changed), count(*)
  FROM "ChangeEvent" e GROUP BY 1, 2, 3, 4, 5, 6;
