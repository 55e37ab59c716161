-- Issue #19: sign-in cards (crachás) and the institution's rules for them.
ALTER TABLE "Institution" ADD COLUMN "cardNetworks" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "Institution" ADD COLUMN "cardStudentsOnly" BOOLEAN NOT NULL DEFAULT true;

CREATE TABLE "SignInCard" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdByPersonId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    CONSTRAINT "SignInCard_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "SignInCard_tokenHash_key" ON "SignInCard"("tokenHash");
CREATE INDEX "SignInCard_profileId_idx" ON "SignInCard"("profileId");
-- One active card per profile: a reprint revokes the old card in the same transaction.
CREATE UNIQUE INDEX "SignInCard_active_profile_key" ON "SignInCard"("profileId") WHERE "revokedAt" IS NULL;
ALTER TABLE "SignInCard" ADD CONSTRAINT "SignInCard_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;
