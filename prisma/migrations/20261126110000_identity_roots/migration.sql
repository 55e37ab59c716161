-- Identity roots (docs/decisions/014-pairwise-identifiers.md): the keys per-partner identifiers
-- and pseudonyms are derived from. They never rotate (a partner's ids and pseudonyms must stay
-- stable) and are stored sealed with the hub secret's key ring, so rotating HUB_SECRET re-seals
-- them without changing them. One row per root, created by the first instance that needs it.

CREATE TABLE "IdentityRoot" (
    "name" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IdentityRoot_pkey" PRIMARY KEY ("name")
);
