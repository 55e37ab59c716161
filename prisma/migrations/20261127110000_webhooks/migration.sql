-- Signed webhooks (issue #20, docs/decisions/026-webhooks-read-the-feed.md). An endpoint of an
-- application; a cursor into the Data API feed per endpoint and institution, which is also the
-- queue (claimed with FOR UPDATE SKIP LOCKED and a lease); a log of every attempt (status,
-- latency, response code, never a body).
CREATE TABLE "WebhookEndpoint" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "applicationId" UUID NOT NULL,
  "url" TEXT NOT NULL,
  "description" TEXT NOT NULL DEFAULT '',
  "entities" TEXT[] NOT NULL DEFAULT '{}',
  "kinds" TEXT[] NOT NULL DEFAULT '{}',
  "secretSealed" TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "disabledAt" TIMESTAMPTZ(3),
  "disabledReason" TEXT,
  CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "WebhookEndpoint_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "OAuthApplication"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "WebhookEndpoint_applicationId_idx" ON "WebhookEndpoint"("applicationId");

CREATE TABLE "WebhookCursor" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "endpointId" UUID NOT NULL,
  "institutionId" UUID NOT NULL,
  "position" TEXT,
  "dueAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "leaseUntil" TIMESTAMPTZ(3),
  "leaseToken" UUID,
  "failures" INTEGER NOT NULL DEFAULT 0,
  "failingSince" TIMESTAMPTZ(3),
  "pendingLimit" INTEGER,
  "lastError" TEXT,
  "deliveredAt" TIMESTAMPTZ(3),
  CONSTRAINT "WebhookCursor_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "WebhookCursor_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "WebhookCursor_institutionId_fkey" FOREIGN KEY ("institutionId") REFERENCES "Institution"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "WebhookCursor_endpointId_institutionId_key" ON "WebhookCursor"("endpointId", "institutionId");
CREATE INDEX "WebhookCursor_dueAt_idx" ON "WebhookCursor"("dueAt");

CREATE TABLE "WebhookAttempt" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "endpointId" UUID NOT NULL,
  "institutionId" UUID,
  "messageId" TEXT NOT NULL,
  "trigger" TEXT NOT NULL,
  "fromPosition" TEXT,
  "toPosition" TEXT,
  "eventCount" INTEGER NOT NULL DEFAULT 0,
  "attemptedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "latencyMs" INTEGER NOT NULL,
  "responseStatus" INTEGER,
  "ok" BOOLEAN NOT NULL,
  "error" TEXT,
  "worker" TEXT,
  CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "WebhookAttempt_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "WebhookAttempt_endpointId_attemptedAt_idx" ON "WebhookAttempt"("endpointId", "attemptedAt");
