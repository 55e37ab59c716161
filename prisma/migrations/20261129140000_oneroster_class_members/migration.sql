-- hub:no-transaction
-- Issue #43: OneRoster's "students of a class" and "teachers of a class" find the class's
-- enrollment events by the class, not by reading every enrollment of the network
-- (lib/server/oneroster/rostering-sources.ts, classMembersSql). Built without blocking writes
-- (docs/decisions/017-migrations-without-blocking-writes.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "ChangeEvent_class_members_idx" ON "ChangeEvent" ((record->>'turmaId'), entity) WHERE entity IN ('turmaAluno', 'disciplinaProfessor');
