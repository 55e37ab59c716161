import { afterEach, describe, expect, it } from "vitest";
import { env, resetEnvCache } from "./env";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

describe("env", () => {
  it("defaults: embedded database, demo tool on, base URL from the port", () => {
    delete process.env.DATABASE_URL;
    delete process.env.DEMO_TOOL;
    delete process.env.HUB_BASE_URL;
    process.env.PORT = "3456";
    resetEnvCache();
    expect(env()).toMatchObject({ DEMO_TOOL: "1", HUB_BASE_URL: "http://localhost:3456", HUB_TIME_ZONE: "America/Sao_Paulo" });
  });

  it("fails fast, naming the variable, on an unknown time zone or a non-PostgreSQL URL", () => {
    process.env.HUB_TIME_ZONE = "America/Atlantis";
    resetEnvCache();
    expect(() => env()).toThrow(/HUB_TIME_ZONE/);
    process.env.HUB_TIME_ZONE = "America/Sao_Paulo";
    process.env.DATABASE_URL = "mysql://x";
    resetEnvCache();
    expect(() => env()).toThrow(/DATABASE_URL/);
  });
});
