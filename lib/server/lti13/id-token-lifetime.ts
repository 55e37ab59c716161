/** The LTI 1.3 id_token's life: the browser posts it at once; the tool's nonce store must outlive it. */
export const LTI13_ID_TOKEN_SECONDS = 300;
