import { AppError } from "@/lib/errors";
import { normalizeBaseUrl } from "@/lib/lti/base-string";
import type { Tx } from "@/lib/server/school-data/record-change";

export interface CheckLaunchCredentialsFreeOptions {
  tx: Tx;
  consumerKey: string;
  launchUrl: string;
  /** The tool being edited, which may keep its own pair. */
  exceptToolId?: string;
}

/**
 * Refuses a consumer key already registered for the same launch endpoint by another tool. A
 * tool provider finds the secret by consumer key; two secrets for one key at one endpoint make
 * the endpoint refuse both (lib/server/tools/find-tool-secret.ts), so one edtech could break
 * another's launches by reusing its key.
 */
export async function checkLaunchCredentialsFree({ tx, consumerKey, launchUrl, exceptToolId }: CheckLaunchCredentialsFreeOptions): Promise<void> {
  const endpoint = normalizeBaseUrl(launchUrl);
  const sameKey = await tx.tool.findMany({
    where: { consumerKey, ...(exceptToolId ? { id: { not: exceptToolId } } : {}) },
    select: { launchUrl: true },
    take: 100,
  });
  const clash = sameKey.some((tool) => {
    try {
      return normalizeBaseUrl(tool.launchUrl) === endpoint;
    } catch {
      return false;
    }
  });
  if (clash) {
    throw new AppError("conflict", "Revise os campos destacados.", {
      consumerKey: "Esta consumer key já está cadastrada para este endereço de lançamento. Use outra.",
    });
  }
}
