/**
 * secret-box purpose for LTI shared secrets: the seed seals them with it and the launch and the
 * reference tool unseal them with it. A separate purpose means a sealed value of another kind
 * (a signing key, say) can never be decrypted as a shared secret.
 */
export const LTI_SECRET_PURPOSE = "lti-shared-secret";
