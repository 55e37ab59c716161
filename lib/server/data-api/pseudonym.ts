// Pseudonyms for anonymized personal attributes (docs/decisions/004-pseudonyms.md).
// pseudonym = HMAC-SHA256(applicationKey, attribute ‖ 0x00 ‖ raw value), where
// applicationKey = HMAC-SHA256(root, "hub/data-api/pseudonym/v1" ‖ 0x00 ‖ applicationId), where
// root is the "pseudonym" identity root: the HUB_SECRET in use when it was created, kept sealed
// in the database so that rotating HUB_SECRET changes no pseudonym (docs/decisions/014).
// Deterministic per application (the same person keeps the same pseudonym across calls),
// unlinkable across applications without the hub secret, and never derived reversibly from
// the raw value.
import { createHmac } from "node:crypto";
import { loadedIdentityRoot } from "@/lib/server/crypto/identity-root";
import type { TPersonalAttribute } from "@/lib/validations/data-api";

const CONTEXT = "hub/data-api/pseudonym/v1";
const keys = new Map<string, Buffer>();

function applicationKey(applicationId: string): Buffer {
  const secret = loadedIdentityRoot("pseudonym");
  // Every channel loads the roots before it filters (pairwiseIds, loadIdentityRoots): a caller
  // that did not is a bug, and guessing the root would silently change every pseudonym.
  if (!secret) throw new Error("The pseudonym root is not loaded: await loadIdentityRoots() first");
  const cacheKey = `${applicationId}\0${secret.toString("base64url")}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = createHmac("sha256", secret).update(`${CONTEXT}\0${applicationId}`, "utf8").digest();
    if (keys.size > 10_000) keys.clear();
    keys.set(cacheKey, key);
  }
  return key;
}

/** The pseudonym of one attribute value for one application, formatted per attribute. */
export function pseudonymize(options: { applicationId: string; attribute: TPersonalAttribute; value: string }): string {
  const hex = createHmac("sha256", applicationKey(options.applicationId))
    .update(`${options.attribute}\0${options.value}`, "utf8")
    .digest("hex");
  switch (options.attribute) {
    case "nome_usuario":
      return `Usuário ${hex.slice(0, 8)}`;
    case "email_usuario":
      // .invalid is reserved (RFC 2606): such an address can never be delivered to anyone.
      return `u${hex.slice(0, 16)}@anonimo.invalid`;
    default:
      // cpf, telefone, idade: a token that cannot be mistaken for (or validate as) a real value.
      return `anon:${hex.slice(0, 16)}`;
  }
}
