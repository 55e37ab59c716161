-- Issue #19: sign-ins counted for the usage page (no person, only institution and profile kind).
CREATE TABLE "SignInLog" (
    "id" UUID NOT NULL,
    "institutionId" UUID NOT NULL,
    "role" "Role" NOT NULL,
    "method" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SignInLog_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "SignInLog_institutionId_createdAt_idx" ON "SignInLog"("institutionId", "createdAt");
ALTER TABLE "SignInLog" ADD CONSTRAINT "SignInLog_institutionId_fkey" FOREIGN KEY ("institutionId") REFERENCES "Institution"("id") ON DELETE CASCADE ON UPDATE CASCADE;
