-- Issue #21: a tool's LTI 1.3 registration (docs/decisions/028-lti13-beside-lti10.md). A new,
-- empty table: nothing existing is rewritten or locked for long.
CREATE TABLE "ToolLti13" (
    "toolId" UUID NOT NULL,
    "clientId" UUID NOT NULL,
    "deploymentId" UUID NOT NULL,
    "loginUrl" TEXT NOT NULL,
    "targetLinkUri" TEXT NOT NULL,
    "redirectUris" TEXT[],
    "jwksUrl" TEXT,
    "publicJwk" JSONB,
    "deepLinkingUrl" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "ToolLti13_pkey" PRIMARY KEY ("toolId")
);
CREATE UNIQUE INDEX "ToolLti13_clientId_key" ON "ToolLti13"("clientId");
ALTER TABLE "ToolLti13" ADD CONSTRAINT "ToolLti13_toolId_fkey" FOREIGN KEY ("toolId") REFERENCES "Tool"("id") ON DELETE CASCADE ON UPDATE CASCADE;
