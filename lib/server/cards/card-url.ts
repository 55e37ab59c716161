import { env } from "@/lib/env";

/** A card token: 256 random bits, base64url without padding (lib/oauth/secret.ts generateSecret(32)). */
export const CARD_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What the card's QR code holds. */
export function cardUrl(token: string): string {
  return `${env().HUB_BASE_URL}/cracha/${token}`;
}
