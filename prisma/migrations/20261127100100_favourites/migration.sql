-- Issue #19: gallery cards a profile pinned (favourites).
CREATE TABLE "FavouritePlacement" (
    "profileId" UUID NOT NULL,
    "placementId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "FavouritePlacement_pkey" PRIMARY KEY ("profileId", "placementId")
);
CREATE INDEX "FavouritePlacement_placementId_idx" ON "FavouritePlacement"("placementId");
ALTER TABLE "FavouritePlacement" ADD CONSTRAINT "FavouritePlacement_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "FavouritePlacement" ADD CONSTRAINT "FavouritePlacement_placementId_fkey" FOREIGN KEY ("placementId") REFERENCES "Placement"("id") ON DELETE CASCADE ON UPDATE CASCADE;
