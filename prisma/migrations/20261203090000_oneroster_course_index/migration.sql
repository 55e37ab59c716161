-- hub:no-transaction
-- Issue #43: a course's classes (`courses/{id}/classes`) and a course by id. A course's id is
-- derived from its school, school year and grade (lib/server/oneroster/rostering-sources.ts,
-- courseIdSql), so finding it read every class of the network: 1.3 s at a million students. This
-- indexes the classes' events by that very expression; it must stay the same text as courseIdSql
-- writes for the classes' source. Built without blocking writes
-- (docs/decisions/017-migrations-without-blocking-writes.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "ChangeEvent_course_idx" ON "ChangeEvent" ((md5('hub/oneroster/course/' || "institutionId"::text || '/' || (record->>'periodoId') || '/' || coalesce((record->>'serie'), ''))::uuid)) WHERE entity = 'turma';
