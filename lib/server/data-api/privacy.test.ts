import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { setupTestDatabase } from "@/test/database";
import { PERSONAL_ATTRIBUTES, type TPersonalAttribute } from "@/lib/validations/data-api";
import { combineAccessSettings, recordFilter, recordTextFilter } from "./privacy";
import { pseudonymize } from "./pseudonym";

// Pseudonyms derive from the "pseudonym" identity root, kept in the database (identity-root.ts).
setupTestDatabase();

beforeAll(async () => {
  process.env.HUB_SECRET = "privacy-test-secret-0123456789abcdef";
  resetEnvCache();
  await loadIdentityRoots();
});

const record = () => ({
  id: "p1",
  perfil: "aluno",
  nome_usuario: "Ana Beatriz Souza",
  idade: "2012-03-04",
  cpf: "52998224725",
  email_usuario: "ana@escola.test",
  telefone: null as string | null,
});

describe("combineAccessSettings: the most restrictive of several settings", () => {
  it("allowed = every setting allows; anonymized = some setting anonymizes (within allowed)", () => {
    expect(
      combineAccessSettings([
        { allowedAttributes: ["nome_usuario", "cpf", "email_usuario", "telefone"], anonymizedAttributes: ["cpf"] },
        { allowedAttributes: ["nome_usuario", "cpf", "telefone", "bogus"], anonymizedAttributes: ["nome_usuario", "email_usuario"] },
      ]),
    ).toEqual({ allowed: ["nome_usuario", "cpf", "telefone"], anonymized: ["nome_usuario", "cpf"] });
  });
});

describe("recordFilter", () => {
  it("drops what is not allowed, pseudonymizes what is anonymized, keeps null as null", () => {
    const filter = recordFilter({ allowed: ["nome_usuario", "cpf", "telefone", "idade"], anonymized: ["cpf", "telefone", "idade"] }, "app-1");
    const out = filter(record());
    expect(out).not.toHaveProperty("email_usuario");
    expect(out.nome_usuario).toBe("Ana Beatriz Souza");
    expect(out.cpf).toMatch(/^anon:[0-9a-f]{16}$/);
    expect(out.idade).toMatch(/^anon:[0-9a-f]{16}$/);
    expect(out.telefone).toBeNull();
    expect(out.perfil).toBe("aluno");
  });

  it("pseudonyms: per-attribute format, stable per application, different across applications and attributes", () => {
    const a = (attribute: "nome_usuario" | "email_usuario" | "cpf", value: string, applicationId = "app-1") => pseudonymize({ applicationId, attribute, value });
    expect(a("nome_usuario", "Ana")).toMatch(/^Usuário [0-9a-f]{8}$/);
    expect(a("email_usuario", "ana@escola.test")).toMatch(/^u[0-9a-f]{16}@anonimo\.invalid$/);
    expect(a("cpf", "52998224725")).toBe(a("cpf", "52998224725"));
    expect(a("cpf", "52998224725")).not.toBe(a("cpf", "52998224725", "app-2"));
    expect(a("cpf", "52998224725").slice(5)).not.toBe(a("email_usuario", "52998224725").slice(1, 17));
  });

  it("records without personal attributes pass unchanged", () => {
    const filter = recordFilter({ allowed: [], anonymized: [] }, "app-1");
    expect(filter({ id: "t1", nome: "6º A" })).toEqual({ id: "t1", nome: "6º A" });
  });
});

describe("recordTextFilter (records as the database's JSON text)", () => {
  const configuration = { allowed: ["nome_usuario", "cpf", "idade"] as TPersonalAttribute[], anonymized: ["cpf"] as TPersonalAttribute[] };
  /** jsonb's own text form: ", " and ": " separators. */
  const jsonbText = (record: Record<string, unknown>) =>
    `{${Object.entries(record).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")}}`;
  const texts = [
    jsonbText(record()),
    '{"id": "t1", "nome": "6º A", "periodoId": "p1"}',
    '{"id": "t2", "nome": "Turma \\"cpf\\": 1", "email_usuario_x": "a@b"}',
    '{"id": "u3", "cpf": null, "email_usuario": "x@escola.test", "telefone": "11999990000"}',
    // Not flat: goes through the object path.
    '{"id": "u4", "cpf": "52998224725", "extra": {"telefone": "1"}, "tags": ["a", "b"]}',
    // A key written with a \u escape (valid JSON, though PostgreSQL never writes it).
    '{"id": "u5", "\\u0063pf": "52998224725", "\\u0065mail_usuario": "e@x.test"}',
  ];

  const object = recordFilter(configuration, "app-1");
  const text = recordTextFilter(configuration, "app-1");
  const same = (json: string) => expect(JSON.parse(text(json))).toEqual(object(JSON.parse(json) as Record<string, unknown>));

  it("gives what recordFilter gives: flat, nested, escaped keys, marker-like strings", () => {
    for (const json of texts) same(json);
    expect(text(texts[5]!)).not.toContain("52998224725");
    expect(text(texts[5]!)).not.toContain("e@x.test");
  });

  it("gives what recordFilter gives for 2,000 random flat records, in both separator styles", () => {
    // Strings with the characters a scanner can trip on: quotes, backslashes, separators, braces.
    const pieces = ['"', "\\", ", ", ": ", "{", "}", "[", "]", '"cpf": ', "\\u0041", "ç", "😀", "\n", " ", "x"];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const scalar = (): unknown => {
      switch (random(6)) {
        case 0: return null;
        case 1: return random(2) === 0;
        case 2: return random(100_000) - 50_000 + random(1000) / 1000;
        default: return Array.from({ length: random(6) }, () => pieces[random(pieces.length)]).join("");
      }
    };
    const keys = ["id", "nome_usuario", "cpf", "idade", "email_usuario", "telefone", "perfil", "x\"y", "cpf_x"];
    for (let n = 0; n < 2000; n++) {
      const rec: Record<string, unknown> = {};
      for (const key of keys) if (random(3) > 0) rec[key] = scalar();
      same(jsonbText(rec));
      same(JSON.stringify(rec));
    }
  });

  it("returns a record that has no changed attribute as the very same text", () => {
    expect(text(texts[1]!)).toBe(texts[1]);
    expect(text(texts[2]!)).toBe(texts[2]);
    expect(text(texts[0]!)).not.toContain(record().email_usuario as string);
    expect(text(texts[0]!)).not.toContain(record().cpf as string);
  });

  it("passes everything through when the configuration keeps every attribute", () => {
    const all = recordTextFilter({ allowed: [...PERSONAL_ATTRIBUTES], anonymized: [] }, "app-1");
    expect(all(texts[0]!)).toBe(texts[0]);
  });
});
