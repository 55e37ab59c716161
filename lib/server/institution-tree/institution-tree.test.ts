// The one tree walk: ancestors in one query, a subtree from a tree-ordered list, the one access
// rule, and a move refused when it would make a cycle.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { moveInstitution } from "@/lib/server/institutions/move-institution";
import { setupTestDatabase } from "@/test/database";
import { effectiveAccess } from "./effective-access";
import { listAncestors } from "./list-ancestors";
import { subtreeOf } from "./subtree-of";

setupTestDatabase();

async function chainOfThree() {
  const top = await db().institution.create({ data: { name: "Rede", kind: "network" } });
  const mid = await db().institution.create({ data: { name: "Sub-rede", kind: "network", parentId: top.id } });
  const leaf = await db().institution.create({ data: { name: "Escola", kind: "school", parentId: mid.id } });
  return { top, mid, leaf };
}

describe("listAncestors", () => {
  it("gives the institution and its ancestors, nearest first; nothing for an unknown id", async () => {
    const { top, mid, leaf } = await chainOfThree();
    expect((await listAncestors({ institutionId: leaf.id })).map((a) => a.id)).toEqual([leaf.id, mid.id, top.id]);
    expect(await listAncestors({ institutionId: "00000000-0000-4000-8000-000000000000" })).toEqual([]);
  });
});

describe("subtreeOf", () => {
  it("takes the institution and the deeper run after it in tree order", () => {
    const list = [
      { id: "a", depth: 0 },
      { id: "b", depth: 1 },
      { id: "c", depth: 2 },
      { id: "d", depth: 1 },
    ];
    expect(subtreeOf({ institutions: list, rootId: "b" }).map((i) => i.id)).toEqual(["b", "c"]);
    expect(subtreeOf({ institutions: list, rootId: "a" }).map((i) => i.id)).toEqual(["a", "b", "c", "d"]);
    expect(subtreeOf({ institutions: list, rootId: "d" }).map((i) => i.id)).toEqual(["d"]);
    expect(subtreeOf({ institutions: list, rootId: "x" })).toEqual([]);
  });
});

describe("effectiveAccess", () => {
  const rule = { allowed: ["nome"] };
  it("needs a contract on the chain, and the nearest rule row applies", () => {
    expect(effectiveAccess([{ linked: false, rule }], "application")).toMatchObject({ enabled: false, reason: "no_contract" });
    const near = { linked: false, rule: { allowed: [] } };
    expect(effectiveAccess([{ linked: false, rule: null }, near, { linked: true, rule }], "application")).toEqual({ enabled: true, ruleLevel: near });
  });
  it("enables an application only with a rule row, a tool by its contract alone", () => {
    const chain = [{ linked: true, rule: null }];
    expect(effectiveAccess(chain, "application")).toEqual({ enabled: false, reason: "not_enabled", ruleLevel: null });
    expect(effectiveAccess(chain, "tool")).toEqual({ enabled: true, ruleLevel: null });
  });
});

describe("moveInstitution", () => {
  it("refuses a move under the institution itself or a descendant, and moves otherwise", async () => {
    const { top, mid, leaf } = await chainOfThree();
    await expect(moveInstitution({ institutionId: top.id, parentId: leaf.id })).rejects.toMatchObject({ status: 400 });
    await expect(moveInstitution({ institutionId: mid.id, parentId: mid.id })).rejects.toMatchObject({ status: 400 });
    await expect(moveInstitution({ institutionId: mid.id, parentId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({ status: 404 });
    const other = await db().institution.create({ data: { name: "Outra", kind: "network" } });
    expect((await moveInstitution({ institutionId: mid.id, parentId: other.id })).parentId).toBe(other.id);
    expect((await listAncestors({ institutionId: leaf.id })).map((a) => a.id)).toEqual([leaf.id, mid.id, other.id]);
  });
});
