import { describe, expect, it } from "vitest";
import { fromZodError } from "@/lib/errors";
import { encodeCursor } from "@/lib/data-api/cursor";
import { DATA_QUERY_PARAMETERS, ZDataQuerySchema, ZSummaryQuerySchema, queryInput, requestedEntities } from "./data-api";

const parse = (qs: string) => ZDataQuerySchema.safeParse(queryInput(new URLSearchParams(qs), Object.keys(DATA_QUERY_PARAMETERS)));
const failure = (qs: string) => {
  const r = parse(qs);
  if (r.success) throw new Error(`expected ${qs} to fail`);
  return fromZodError(r.error);
};

describe("Data API query", () => {
  it("dates: a literal +, %2B and a space all parse to the same wall time", () => {
    const expected = { year: 2026, month: 3, day: 1, hour: 8, minute: 5, second: 9 };
    for (const qs of ["min_date=2026/03/01+08:05:09", "min_date=2026/03/01%2B08:05:09", "min_date=2026/03/01%2008:05:09"]) {
      expect(parse(qs)).toMatchObject({ success: true, data: { min_date: expected } });
    }
  });

  it.each([
    ["min_date=2026-03-01+08:00:00", "min_date"],
    ["min_date=2026/03/01", "min_date"],
    ["max_date=2026/02/30+08:00:00", "max_date"],
    ["max_date=2026/03/01+24:00:00", "max_date"],
    ["max_date=2026/03/01T08:00:00", "max_date"],
    ["event=upsert", "event"],
    ["event=insert,Insert", "event"],
    ["only=aluno", "only"],
    ["except=turma,classe", "except"],
    ["user_id=123", "user_id"],
    ["code_term=20%2026", "code_term"],
    ["limit=0", "limit"],
    ["limit=10001", "limit"],
    ["limit=1.5", "limit"],
    ["limit=abc", "limit"],
    ["cursor=nope!", "cursor"],
  ])("%s → 400 naming %s", (qs, name) => {
    const error = failure(qs);
    expect(error.status).toBe(400);
    expect(error.message).toContain(name);
    expect(Object.keys(error.fields ?? {})).toEqual([name]);
  });

  it("min after max names both parameters; equal is allowed", () => {
    const error = failure("min_date=2026/03/02+00:00:00&max_date=2026/03/01+23:59:59");
    expect(error.message).toBe("Parâmetro inválido: min_date, max_date");
    expect(parse("min_date=2026/03/01+10:00:00&max_date=2026/03/01+10:00:00").success).toBe(true);
  });

  it("lists: trimmed, deduplicated, canonical order; repeated parameters join; empty is not informed", () => {
    expect(parse("event=update, insert&event=update").data?.event).toEqual(["insert", "update"]);
    expect(parse("only=periodo,usuario").data?.only).toEqual(["usuario", "periodo"]);
    expect(parse("event=&only=").data).toEqual({});
  });

  it("ignores unknown parameters and accepts a cursor of ours", () => {
    const cursor = encodeCursor({ txid: "12", seq: "3" });
    expect(parse(`foo=bar&limit=7&cursor=${cursor}&code_term=2026`).data).toEqual({ limit: 7, cursor: { txid: "12", seq: "3" }, code_term: "2026" });
  });

  it("user_id accepts any hex UUID and lowercases it", () => {
    expect(parse("user_id=AAAAAAAA-1111-1111-1111-111111111111").data?.user_id).toBe("aaaaaaaa-1111-1111-1111-111111111111");
  });

  it("requestedEntities: only minus except", () => {
    expect(requestedEntities({})).toHaveLength(7);
    expect(requestedEntities({ only: ["usuario", "turma"], except: ["turma"] })).toEqual(["usuario"]);
    expect(requestedEntities({ except: ["usuario"] })).not.toContain("usuario");
  });

  it("the summary query is narrowed by user_id and code_term as the data is, and has no limit or cursor", () => {
    const userId = "0b6f3c1e-6d1a-4c7e-9a51-2f4a9a0c1d2e";
    expect(ZSummaryQuerySchema.parse({ user_id: userId.toUpperCase(), code_term: "2026", limit: "0", cursor: "x", event: "delete" })).toEqual({ user_id: userId, code_term: "2026", event: ["delete"] });
    expect(ZSummaryQuerySchema.safeParse({ user_id: "x" }).success).toBe(false);
  });
});
