-- Sandbox networks (issue #20, docs/decisions/027-sandbox-networks.md): one per edtech, on request,
-- with plainly fake people whose shared password is kept sealed so the developer area can print it.
CREATE TABLE "Sandbox" (
  "edtechId" UUID NOT NULL,
  "institutionId" UUID NOT NULL,
  "passwordSealed" TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "changeRounds" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "Sandbox_pkey" PRIMARY KEY ("edtechId"),
  CONSTRAINT "Sandbox_edtechId_fkey" FOREIGN KEY ("edtechId") REFERENCES "Edtech"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "Sandbox_institutionId_fkey" FOREIGN KEY ("institutionId") REFERENCES "Institution"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Sandbox_institutionId_key" ON "Sandbox"("institutionId");
