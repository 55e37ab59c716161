// Which check of a JWT's verification failed, read once from jose's errors, for both directions
// of LTI 1.3: the hub's launch as a tool checks it (validate-launch.ts) and the JWTs a tool signs
// for the hub (tool-jwt.ts). Each names the failures in its own rule vocabulary.
import { errors } from "jose";

export type TJoseFailure = "kid" | "alg" | "expired" | "issuer" | "audience" | "claim" | "signature";

export function joseFailure(error: unknown): TJoseFailure {
  if (error instanceof errors.JWKSNoMatchingKey) return "kid";
  if (error instanceof errors.JOSEAlgNotAllowed) return "alg";
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "issuer";
    if (error.claim === "aud") return "audience";
    if (error.claim === "exp" || error.claim === "iat") return "expired";
    return "claim";
  }
  return "signature";
}
