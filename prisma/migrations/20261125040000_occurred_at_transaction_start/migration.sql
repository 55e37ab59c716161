-- ChangeEvent.occurredAt is the writing transaction's start, set by the database (now()), not a
-- time the client stamps per statement: docs/decisions/013-min-date-polling.md.
ALTER TABLE "ChangeEvent" ALTER COLUMN "occurredAt" SET DEFAULT now();
