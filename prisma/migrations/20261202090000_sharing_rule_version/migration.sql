-- A number that changes, in the same commit, with anything the sharing rule engine reads up the
-- institution tree (lib/server/privacy/resolve-sharing-rule.ts): the rule rows (ApplicationAccess,
-- ToolSharing), the contracts (EdtechLink) and the tree itself (Institution."parentId"). User info
-- keeps its last answer for a token in memory and reads this number in the same statement as the
-- token's row: when it moved, the rule is read again in that same statement, so a changed rule
-- holds on the very next call on every instance (lib/server/oauth/get-user-info.ts).
-- Its values come from a sequence, so no value is ever seen twice, even should the row be deleted
-- and written again.
CREATE SEQUENCE "SharingRuleVersion_seq";
CREATE TABLE "SharingRuleVersion" (
  "id" SMALLINT PRIMARY KEY CHECK ("id" = 1),
  "version" BIGINT NOT NULL
);
INSERT INTO "SharingRuleVersion" ("id", "version") VALUES (1, nextval('"SharingRuleVersion_seq"'));

-- One bump per transaction, however many rows it writes (a transaction-local setting remembers it),
-- and at commit (the triggers below are deferred): the row's lock is taken after everything else
-- the transaction locks, so two writers of rules wait for each other's commit and never deadlock.
-- The upsert writes the row again should it ever be deleted.
CREATE FUNCTION "hub_bump_sharing_rule_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('hub.sharing_rule_bumped', true) IS DISTINCT FROM '1' THEN
    INSERT INTO "SharingRuleVersion" ("id", "version") VALUES (1, nextval('"SharingRuleVersion_seq"'))
    ON CONFLICT ("id") DO UPDATE SET "version" = EXCLUDED."version";
    PERFORM set_config('hub.sharing_rule_bumped', '1', true);
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "ApplicationAccess_rule_version" AFTER INSERT OR UPDATE OR DELETE ON "ApplicationAccess"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "hub_bump_sharing_rule_version"();
CREATE CONSTRAINT TRIGGER "ToolSharing_rule_version" AFTER INSERT OR UPDATE OR DELETE ON "ToolSharing"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "hub_bump_sharing_rule_version"();
CREATE CONSTRAINT TRIGGER "EdtechLink_rule_version" AFTER INSERT OR UPDATE OR DELETE ON "EdtechLink"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "hub_bump_sharing_rule_version"();
CREATE CONSTRAINT TRIGGER "Institution_moved_rule_version" AFTER UPDATE OF "parentId" ON "Institution"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."parentId" IS DISTINCT FROM NEW."parentId" OR OLD.id <> NEW.id)
  EXECUTE FUNCTION "hub_bump_sharing_rule_version"();
CREATE CONSTRAINT TRIGGER "Institution_deleted_rule_version" AFTER DELETE ON "Institution"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "hub_bump_sharing_rule_version"();

-- TRUNCATE fires no row trigger: bump at once.
CREATE FUNCTION "hub_bump_sharing_rule_version_now"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SharingRuleVersion" ("id", "version") VALUES (1, nextval('"SharingRuleVersion_seq"'))
  ON CONFLICT ("id") DO UPDATE SET "version" = EXCLUDED."version";
  RETURN NULL;
END $$;
CREATE TRIGGER "ApplicationAccess_truncated_rule_version" AFTER TRUNCATE ON "ApplicationAccess" FOR EACH STATEMENT EXECUTE FUNCTION "hub_bump_sharing_rule_version_now"();
CREATE TRIGGER "ToolSharing_truncated_rule_version" AFTER TRUNCATE ON "ToolSharing" FOR EACH STATEMENT EXECUTE FUNCTION "hub_bump_sharing_rule_version_now"();
CREATE TRIGGER "EdtechLink_truncated_rule_version" AFTER TRUNCATE ON "EdtechLink" FOR EACH STATEMENT EXECUTE FUNCTION "hub_bump_sharing_rule_version_now"();
CREATE TRIGGER "Institution_truncated_rule_version" AFTER TRUNCATE ON "Institution" FOR EACH STATEMENT EXECUTE FUNCTION "hub_bump_sharing_rule_version_now"();
