import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { PERSONAL_ATTRIBUTES, type TPersonalAttribute } from "@/lib/validations/data-api";
import { combineAccessSettings, recordFilter, recordTextFilter } from "./privacy";
import { pseudonymize } from "./pseudonym";

beforeAll(() => {
  process.env.HUB_SECRET = "privacy-test-secret-0123456789abcdef";
  resetEnvCache();
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
  // jsonb's own text form: keys ordered by length, ", " and ": " separators.
  const texts = [
    JSON.stringify(record()).replaceAll(",", ", ").replaceAll('":', '": '),
    '{"id": "t1", "nome": "6º A", "periodoId": "p1"}',
    '{"id": "t2", "nome": "Turma \\"cpf\\": 1", "email_usuario_x": "a@b"}',
    '{"id": "u3", "cpf": null, "email_usuario": "x@escola.test", "telefone": "11999990000"}',
  ];

  it("gives what recordFilter gives, for records with and without personal attributes", () => {
    const text = recordTextFilter(configuration, "app-1");
    const object = recordFilter(configuration, "app-1");
    for (const json of texts) expect(JSON.parse(text(json))).toEqual(object(JSON.parse(json) as Record<string, unknown>));
  });

  it("returns a record that has no changed attribute as the very same text, unparsed", () => {
    const text = recordTextFilter(configuration, "app-1");
    expect(text(texts[1]!)).toBe(texts[1]);
    expect(text(texts[2]!)).toBe(texts[2]);
    const raw = texts[0]!;
    expect(text(raw)).not.toContain(record().email_usuario as string);
    expect(text(raw)).not.toContain(record().cpf as string);
  });

  it("passes everything through when the configuration keeps every attribute", () => {
    const all = recordTextFilter({ allowed: [...PERSONAL_ATTRIBUTES], anonymized: [] }, "app-1");
    expect(all(texts[0]!)).toBe(texts[0]);
  });
});
