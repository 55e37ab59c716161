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
export function isUuidText(value: string): boolean {
  return value.length === 36 && isUuidAt(value, 0);
}

const DASH = 45;

/**
 * Whether the 36 characters of `text` from `start` are a UUID as isUuidText reads one, checked
 * where they lie: the Data API asks this of three ids per event it writes (pairwise-records.ts),
 * and a slice and a regular expression each time were 5% of a whole feed's CPU.
 */
export function isUuidAt(text: string, start: number): boolean {
  if (start < 0 || start + 36 > text.length) return false;
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(start + i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== DASH) return false;
    } else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

/** The ASCII codes of the hex digits, for writing ids out. */
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");

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
    // Every id written out 8-4-4-4-12 into one ASCII buffer, decoded once and cut 36 characters at
    // a time: one string per id instead of six.
    const bytes = new Uint8Array(state.buffer);
    const ascii = Buffer.allocUnsafe(n * 36);
    for (let i = 0, o = 0; i < n; i++) {
      for (let b = i * 16, end = b + 16; b < end; b++) {
        const k = b & 15;
        if (k === 4 || k === 6 || k === 8 || k === 10) ascii[o++] = DASH;
        const v = bytes[b]!;
        ascii[o++] = HEX_DIGITS[v >> 4]!;
        ascii[o++] = HEX_DIGITS[v & 15]!;
      }
    }
    const all = ascii.toString("latin1");
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = all.slice(i * 36, i * 36 + 36);
    return out;
  }
}
