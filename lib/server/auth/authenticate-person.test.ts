import { beforeAll, describe, expect, it } from "vitest";
import { createPerson } from "@/lib/server/school-data/create-person";
import { setupTestDatabase } from "@/test/database";
import { authenticatePerson } from "./authenticate-person";
import { THROTTLE } from "./throttle";

setupTestDatabase();
let personId = "";

beforeAll(async () => {
  personId = (await createPerson({ name: "Clara Dias", email: "Clara.Dias@Escola.test", cpf: "529.982.247-25", password: "senha-forte-1" })).id;
});

describe("authenticatePerson: the credentials provider's check (login = e-mail or CPF)", () => {
  it("accepts the e-mail in any case and the CPF with or without punctuation", async () => {
    for (const login of ["clara.dias@escola.test", " CLARA.DIAS@ESCOLA.TEST ", "52998224725", "529.982.247-25"]) {
      const result = await authenticatePerson({ login, password: "senha-forte-1", ip: "10.0.0.1" });
      expect(result, login).toMatchObject({ ok: true, person: { id: personId } });
    }
  });

  it("refuses a wrong password and an unknown login with the same answer", async () => {
    expect(await authenticatePerson({ login: "52998224725", password: "errada", ip: "10.0.0.2" })).toEqual({ ok: false, reason: "invalid_credentials" });
    expect(await authenticatePerson({ login: "12345678909", password: "errada", ip: "10.0.0.2" })).toEqual({ ok: false, reason: "invalid_credentials" });
  });

  it(`locks a login after ${THROTTLE.maxFailures.login} failures, even for the right password`, async () => {
    await createPerson({ name: "Davi Luz", cpf: "111.444.777-35", password: "senha-forte-2" });
    for (let i = 0; i < THROTTLE.maxFailures.login; i++) {
      await authenticatePerson({ login: "111.444.777-35", password: `errada-${i}`, ip: `10.0.1.${i}` });
    }
    expect(await authenticatePerson({ login: "11144477735", password: "senha-forte-2", ip: "10.0.2.1" })).toEqual({ ok: false, reason: "too_many_attempts" });
  });
});
