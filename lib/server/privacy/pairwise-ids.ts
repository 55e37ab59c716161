// Per-partner identifiers of people (OpenID Connect's pairwise subject type; docs/decisions/
// 014-pairwise-identifiers.md). Every id that names a person, a profile, a link between people
// and classes, or an event about one, is shown to a partner as the image of the global id under a
// permutation keyed for that partner; a partner's ids map back to global ids by the inverse, so
// nothing is stored per (partner, person). The partner is the OAuth application (Data API key,
// sign-in, tokens, user info) or the LTI tool (launch): an edtech's tool and its application are
// two partners.
import { createHmac } from "node:crypto";
import { identityRoot, loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { isUuidText, UuidPermutation } from "@/lib/server/crypto/uuid-permutation";

export type TPartnerRef = { kind: "application" | "tool"; id: string };

const CONTEXT = "hub/pairwise/v1";

export interface TPairwiseIds {
  readonly partner: TPartnerRef;
  /** The partner's id for a global id. */
  toPartner(globalId: string): string;
  /** The partner's ids for many global ids (one cipher call per round for the batch). */
  toPartnerMany(globalIds: readonly string[]): string[];
  /**
   * The global id for an id the partner sent back, or null when it is not a UUID. An id of
   * another partner maps to an unrelated UUID, which names nothing.
   */
  toGlobal(partnerId: string): string | null;
}

// Permutations per (root, partner): the key derivation and the cipher object are made once.
const permutations = new Map<string, UuidPermutation>();
const MAX_CACHED = 10_000;

function permutationFor(root: Buffer, partner: TPartnerRef): UuidPermutation {
  const label = `${CONTEXT}\0${partner.kind}\0${partner.id.toLowerCase()}`;
  const cacheKey = `${root.toString("base64url")}\0${label}`;
  let permutation = permutations.get(cacheKey);
  if (!permutation) {
    if (permutations.size >= MAX_CACHED) permutations.clear();
    // key = HMAC-SHA256(root, "hub/pairwise/v1" ‖ 0 ‖ kind ‖ 0 ‖ partner id)
    permutation = new UuidPermutation(createHmac("sha256", root).update(label, "utf8").digest());
    permutations.set(cacheKey, permutation);
  }
  return permutation;
}

/** The translator between global ids and `partner`'s ids. */
export async function pairwiseIds(partner: TPartnerRef): Promise<TPairwiseIds> {
  // A channel that shows ids also applies sharing rules: the pseudonym root is loaded with these.
  await loadIdentityRoots();
  const permutation = permutationFor(await identityRoot("pairwise"), partner);
  return {
    partner,
    toPartner: (globalId) => {
      if (!isUuidText(globalId)) throw new Error("pairwise ids translate UUIDs only");
      return permutation.forward([globalId])[0]!;
    },
    toPartnerMany: (globalIds) => permutation.forward(globalIds),
    toGlobal: (partnerId) => {
      const trimmed = partnerId.trim();
      return isUuidText(trimmed) ? permutation.inverse([trimmed])[0]! : null;
    },
  };
}
