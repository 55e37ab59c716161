// A keyed permutation of UUIDs that keeps them UUIDs (docs/decisions/014-pairwise-identifiers.md).
// RFC 9562 fixes 6 of the 128 bits (the version nibble of byte 6 and the two variant bits of
// byte 8); partners' strict validators (zod's z.uuid(), PostgreSQL's uuid) check them. The other
// 122 bits are permuted by a 4-round unbalanced Feistel network: the left half is bytes 0–7
// without the version nibble (60 bits), the right half bytes 8–15 without the variant bits (62
// bits). Each round XORs AES-256(key, round ‖ 0⁷ ‖ other half) into one half, under a mask that
// leaves the fixed bits alone, so the fixed bits pass through and the map is a bijection whose
// inverse runs the rounds backwards. Four rounds of a PRF make a strong pseudorandom permutation
// (Luby–Rackoff). All ids of a batch go through one cipher call per round, in Buffers: no BigInt.
import { createCipheriv, type Cipher } from "node:crypto";

const ROUNDS = 4;
/** Bytes 0–7 without the version nibble (high nibble of byte 6). */
const LEFT_MASK = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xff]);
/** Bytes 8–15 without the variant bits (two high bits of byte 8). */
const RIGHT_MASK = Buffer.from([0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

/** 8-4-4-4-12 hex digits, any version or variant (what PostgreSQL's uuid accepts, in canonical form). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuidText(value: string): boolean {
  return value.length === 36 && UUID.test(value);
}

function toHex32(uuid: string): string {
  return uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24, 36);
}

function fromHex32(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export class UuidPermutation {
  private readonly cipher: Cipher;

  /** `key`: 32 bytes (AES-256). */
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("UuidPermutation needs a 32-byte key");
    // ECB over independent single blocks, never finalized: update() of whole blocks returns them
    // at once, so one cipher object serves every batch.
    this.cipher = createCipheriv("aes-256-ecb", key, null);
    this.cipher.setAutoPadding(false);
  }

  /** The images of `ids` (each a UUID in text form, checked by the caller), lower-case. */
  forward(ids: readonly string[]): string[] {
    return this.run(ids, false);
  }

  /** The preimages: forward(inverse(x)) = x for every UUID x. */
  inverse(ids: readonly string[]): string[] {
    return this.run(ids, true);
  }

  private run(ids: readonly string[], backwards: boolean): string[] {
    const n = ids.length;
    if (n === 0) return [];
    const state = Buffer.allocUnsafe(n * 16);
    for (let i = 0; i < n; i++) state.write(toHex32(ids[i]!), i * 16, 16, "hex");
    const input = Buffer.alloc(n * 16);
    for (let step = 0; step < ROUNDS; step++) {
      const round = backwards ? ROUNDS - 1 - step : step;
      // Even rounds change the left half from the right one; odd rounds the reverse.
      const source = round % 2 === 0 ? 8 : 0;
      const target = 8 - source;
      const sourceMask = source === 0 ? LEFT_MASK : RIGHT_MASK;
      const targetMask = target === 0 ? LEFT_MASK : RIGHT_MASK;
      for (let i = 0; i < n; i++) {
        const o = i * 16;
        input[o] = round;
        for (let b = 0; b < 8; b++) input[o + 8 + b] = state[o + source + b]! & sourceMask[b]!;
      }
      const f = this.cipher.update(input);
      for (let i = 0; i < n; i++) {
        const o = i * 16;
        for (let b = 0; b < 8; b++) state[o + target + b] = state[o + target + b]! ^ (f[o + b]! & targetMask[b]!);
      }
    }
    const out = new Array<string>(n);
    const hex = state.toString("hex");
    for (let i = 0; i < n; i++) out[i] = fromHex32(hex.slice(i * 32, i * 32 + 32));
    return out;
  }
}
