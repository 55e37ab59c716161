-- Issue #42: networks sign their people in with their own OpenID providers (Google Workspace,
-- Microsoft Entra ID, gov.br, any OpenID Connect provider); an upstream account is one more
-- credential of an existing Person.
CREATE TYPE "IdentityProviderKind" AS ENUM ('google', 'microsoft', 'govbr', 'oidc');

CREATE TABLE "IdentityProvider" (
    "id" UUID NOT NULL,
    "institutionId" UUID NOT NULL,
    "kind" "IdentityProviderKind" NOT NULL,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "tenantId" TEXT,
    "clientId" TEXT NOT NULL,
    "clientSecretSealed" TEXT NOT NULL,
    "allowedDomains" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "linkRule" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "IdentityProvider_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "IdentityProvider_institutionId_idx" ON "IdentityProvider"("institutionId");
ALTER TABLE "IdentityProvider" ADD CONSTRAINT "IdentityProvider_institutionId_fkey" FOREIGN KEY ("institutionId") REFERENCES "Institution"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "UpstreamAccount" (
    "id" UUID NOT NULL,
    "providerId" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "personId" UUID NOT NULL,
    "email" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unlinkedAt" TIMESTAMPTZ(3),
    CONSTRAINT "UpstreamAccount_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "UpstreamAccount_providerId_subject_key" ON "UpstreamAccount"("providerId", "subject");
CREATE INDEX "UpstreamAccount_personId_idx" ON "UpstreamAccount"("personId");
ALTER TABLE "UpstreamAccount" ADD CONSTRAINT "UpstreamAccount_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "IdentityProvider"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "UpstreamAccount" ADD CONSTRAINT "UpstreamAccount_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;
