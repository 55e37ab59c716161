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
/** Bytes 0–7 without the version nibble (high nibble of byte 6), as two words in native order. */
const LEFT_WORDS = words([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xff]);
/** Bytes 8–15 without the variant bits (two high bits of byte 8), as two words. */
const RIGHT_WORDS = words([0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
/** The first word of a round's cipher input: the round number in byte 0, then zeros. */
const ROUND_TAGS = Array.from({ length: ROUNDS }, (_, round) => words([round, 0, 0, 0, 0, 0, 0, 0])[0]);

function words(bytes: number[]): [number, number] {
  const view = new Uint32Array(new Uint8Array(bytes).buffer);
  return [view[0]!, view[1]!];
}

/** 8-4-4-4-12 hex digits, any version or variant (what PostgreSQL's uuid accepts, in canonical form). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuidText(value: string): boolean {
  return value.length === 36 && UUID.test(value);
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
    // Every id is 8-4-4-4-12 (checked by the callers): without the dashes, 32 hex digits each,
    // parsed in one call (a write per id costs four times as much). Copied into a fresh (aligned)
    // buffer so it can be worked on as 32-bit words: an id is 4 words, a half 2.
    const parsed = Buffer.from(ids.join("").replaceAll("-", ""), "hex");
    if (parsed.length !== n * 16) throw new Error("UuidPermutation: not a list of UUIDs");
    const state = new Uint32Array(n * 4);
    Buffer.from(state.buffer).set(parsed);
    const input = new Uint32Array(n * 4);
    for (let step = 0; step < ROUNDS; step++) {
      const round = backwards ? ROUNDS - 1 - step : step;
      // Even rounds change the left half from the right one; odd rounds the reverse.
      const source = round % 2 === 0 ? 2 : 0;
      const target = 2 - source;
      const [s0, s1] = source === 0 ? LEFT_WORDS : RIGHT_WORDS;
      const [t0, t1] = target === 0 ? LEFT_WORDS : RIGHT_WORDS;
      const tag = ROUND_TAGS[round]!;
      for (let o = 0; o < n * 4; o += 4) {
        input[o] = tag;
        input[o + 2] = state[o + source]! & s0;
        input[o + 3] = state[o + source + 1]! & s1;
      }
      const out = this.cipher.update(Buffer.from(input.buffer));
      // Read as words where it lies when aligned (the usual case), else from an aligned copy.
      const f = out.byteOffset % 4 === 0 ? new Uint32Array(out.buffer, out.byteOffset, n * 4) : new Uint32Array(new Uint8Array(out).buffer);
      for (let o = 0; o < n * 4; o += 4) {
        state[o + target] = state[o + target]! ^ (f[o]! & t0);
        state[o + target + 1] = state[o + target + 1]! ^ (f[o + 1]! & t1);
      }
    }
    const hex = Buffer.from(state.buffer).toString("hex");
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = fromHex32(hex.slice(i * 32, i * 32 + 32));
    return out;
  }
}
