import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { setupTestDatabase } from "@/test/database";
import { PERSONAL_ATTRIBUTES, PROFILE_ROLES, type TPersonalAttribute } from "@/lib/validations/data-api";
import {
  combineAccessSettings,
  combineRuleSettings,
  configurationForRecord,
  parseRoleOverrides,
  recordFilter,
  recordFilterByRole,
  recordTextFilter,
  recordTextFilterByRole,
  toConfiguracao,
} from "./privacy";
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

describe("per-role rules (ADR 015)", () => {
  const base = { allowedAttributes: ["nome_usuario"], anonymizedAttributes: [] };
  const teachersEmail = { ...base, roleOverrides: { professor: { allowedAttributes: ["nome_usuario", "email_usuario"], anonymizedAttributes: [] } } };

  it("combineRuleSettings: one row gives each role its override or the base", () => {
    const byRole = combineRuleSettings([teachersEmail]);
    expect(byRole.professor).toEqual({ allowed: ["nome_usuario", "email_usuario"], anonymized: [] });
    expect(byRole.aluno).toEqual({ allowed: ["nome_usuario"], anonymized: [] });
    expect(byRole.responsavel).toEqual(byRole.aluno);
  });

  it("combineRuleSettings across a subtree: most restrictive per role, each row read for that role", () => {
    const school = {
      allowedAttributes: ["nome_usuario", "email_usuario", "cpf"],
      anonymizedAttributes: ["cpf"],
      roleOverrides: { aluno: { allowedAttributes: [], anonymizedAttributes: [] }, professor: { allowedAttributes: ["nome_usuario", "email_usuario"], anonymizedAttributes: ["nome_usuario"] } },
    };
    const byRole = combineRuleSettings([teachersEmail, school]);
    // Teachers: e-mail allowed by both rows' teacher rules; name anonymized by the school's.
    expect(byRole.professor).toEqual({ allowed: ["nome_usuario", "email_usuario"], anonymized: ["nome_usuario"] });
    // Students: the school shares nothing of them.
    expect(byRole.aluno).toEqual({ allowed: [], anonymized: [] });
    // Guardians: both bases.
    expect(byRole.responsavel).toEqual({ allowed: ["nome_usuario"], anonymized: [] });
  });

  it("parseRoleOverrides: a malformed role entry shares nothing for that role; unknown roles are ignored", () => {
    expect(parseRoleOverrides('{"professor": {"allowedAttributes": "cpf"}, "diretor": {"allowedAttributes": ["cpf"], "anonymizedAttributes": []}}')).toEqual({
      professor: { allowedAttributes: [], anonymizedAttributes: [] },
    });
    expect(parseRoleOverrides(null)).toEqual({});
    expect(parseRoleOverrides([])).toEqual({});
  });

  it("toConfiguracao: the contract's shape when every role agrees; the union and porPerfil when they differ", () => {
    expect(toConfiguracao(combineRuleSettings([base].map((b) => ({ ...b, roleOverrides: {} }))))).toEqual({
      conjuntoDadosUsuario: { atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] },
    });
    const byRole = combineRuleSettings([
      { ...teachersEmail, roleOverrides: { ...teachersEmail.roleOverrides, responsavel: { allowedAttributes: ["nome_usuario", "cpf"], anonymizedAttributes: ["cpf"] } } },
    ]);
    const { conjuntoDadosUsuario } = toConfiguracao(byRole);
    expect(conjuntoDadosUsuario.atributosPermitidos).toEqual(["nome_usuario", "cpf", "email_usuario"]);
    expect(conjuntoDadosUsuario.atributosAnonimizados).toEqual(["cpf"]);
    expect(conjuntoDadosUsuario.porPerfil).toEqual({
      aluno: { atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] },
      professor: { atributosPermitidos: ["nome_usuario", "email_usuario"], atributosAnonimizados: [] },
      responsavel: { atributosPermitidos: ["nome_usuario", "cpf"], atributosAnonimizados: ["cpf"] },
      gestor: { atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] },
    });
  });

  it("recordFilterByRole: a teacher's e-mail is kept, a student's dropped; a record without a known perfil gets the strictest rule", () => {
    const byRole = combineRuleSettings([{ ...teachersEmail, roleOverrides: { ...teachersEmail.roleOverrides, gestor: { allowedAttributes: [], anonymizedAttributes: [] } } }]);
    const filter = recordFilterByRole(byRole, "app-1");
    expect(filter({ ...record(), perfil: "professor" })).toMatchObject({ nome_usuario: "Ana Beatriz Souza", email_usuario: "ana@escola.test" });
    expect(filter({ ...record(), perfil: "aluno" })).not.toHaveProperty("email_usuario");
    for (const perfil of [undefined, "diretor", 3, "__proto__"]) {
      const out = filter({ ...record(), perfil });
      expect(out).not.toHaveProperty("email_usuario");
      expect(out).not.toHaveProperty("nome_usuario");
    }
    expect(configurationForRecord(byRole, { perfil: "professor" })).toBe(byRole.professor);
    expect(configurationForRecord(byRole, {})).toEqual({ allowed: [], anonymized: [] });
  });

  it("recordTextFilterByRole gives what recordFilterByRole gives for 3,000 random records and random per-role rules", () => {
    const pieces = ['"', "\\", ", ", ": ", "{", "}", "[", "]", '"perfil": ', '"cpf": ', "\\u0041", "professor", "ç", "\n", " ", "x"];
    // mulberry32: every bit varies (an LCG's low bits cycle, which would leave cases untried).
    let seed = 11;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const subset = <T,>(list: readonly T[]) => list.filter(() => random(2) === 0);
    const randomSettings = () => {
      const allowedAttributes = subset(PERSONAL_ATTRIBUTES);
      return { allowedAttributes, anonymizedAttributes: subset(allowedAttributes) };
    };
    const perfilValue = (): unknown => {
      switch (random(8)) {
        case 0: return null;
        case 1: return 7;
        case 2: return "diretor";
        case 3: return Array.from({ length: random(5) }, () => pieces[random(pieces.length)]).join("");
        default: return PROFILE_ROLES[random(PROFILE_ROLES.length)];
      }
    };
    const scalar = (): unknown => (random(5) === 0 ? null : Array.from({ length: random(6) }, () => pieces[random(pieces.length)]).join(""));
    const jsonbText = (rec: Record<string, unknown>) => `{${Object.entries(rec).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")}}`;
    const keys = ["id", "perfil", "nome_usuario", "cpf", "idade", "email_usuario", "telefone", "perfil_x"];
    for (let round = 0; round < 30; round++) {
      const overrides: Record<string, ReturnType<typeof randomSettings>> = {};
      for (const role of PROFILE_ROLES) if (random(2) === 0) overrides[role] = randomSettings();
      const byRole = combineRuleSettings([{ ...randomSettings(), roleOverrides: overrides }]);
      const object = recordFilterByRole(byRole, "app-1");
      const text = recordTextFilterByRole(byRole, "app-1");
      for (let n = 0; n < 100; n++) {
        const rec: Record<string, unknown> = {};
        for (const key of keys) if (random(4) > 0) rec[key] = key === "perfil" ? perfilValue() : scalar();
        const variants = [jsonbText(rec), JSON.stringify(rec)];
        // A perfil written with a \u escape, or nested, or twice: only parsing can tell.
        if (typeof rec.perfil === "string") variants.push(jsonbText(rec).replace('"perfil"', '"\\u0070erfil"'));
        // A nested object whose own perfil is written in jsonb's layout is no key of the record.
        const { perfil: _perfil, ...withoutPerfil } = rec;
        variants.push(`${jsonbText({ ...withoutPerfil, extra: 0 }).slice(0, -2)}{"a": 1, "perfil": "professor"}}`);
        if (Object.keys(rec).length > 0) variants.push(`{"perfil": "aluno", ${jsonbText(rec).slice(1)}`);
        for (const json of variants) expect(JSON.parse(text(json))).toEqual(object(JSON.parse(json) as Record<string, unknown>));
      }
    }
  });
});
