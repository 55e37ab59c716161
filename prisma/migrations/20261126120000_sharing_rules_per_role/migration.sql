-- Sharing rules per role (privacy issue #14, point 1; docs/decisions/015-sharing-rules-per-role.md):
-- a rule row (ApplicationAccess for an application, ToolSharing for a tool) may override its base
-- rule for some roles, e.g. {"professor": {"allowedAttributes": ["email_usuario"],
-- "anonymizedAttributes": []}}. A role absent from the object follows the base rule, so every
-- existing row keeps meaning exactly what it meant.

ALTER TABLE "ApplicationAccess" ADD COLUMN "roleOverrides" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "ToolSharing" ADD COLUMN "roleOverrides" JSONB NOT NULL DEFAULT '{}';
