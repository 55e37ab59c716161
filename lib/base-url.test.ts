// The base URL's one rule, read by lib/env.ts and by server.mjs alike (base-url.mjs).
import { describe, expect, it } from "vitest";
import { baseUrlFrom } from "./base-url.mjs";
import { env, resetEnvCache } from "./env";

describe("baseUrlFrom", () => {
  it("is HUB_BASE_URL without its trailing slashes", () => {
    expect(baseUrlFrom({ HUB_BASE_URL: "https://hub.escola.example//", PORT: "8080" })).toBe("https://hub.escola.example");
    expect(baseUrlFrom({ HUB_BASE_URL: "http://localhost:3100" })).toBe("http://localhost:3100");
  });

  it("is http://localhost:$PORT without it, and PORT is 3000 when unset or empty", () => {
    expect(baseUrlFrom({ PORT: "3100" })).toBe("http://localhost:3100");
    expect(baseUrlFrom({ PORT: 4000 })).toBe("http://localhost:4000");
    expect(baseUrlFrom({})).toBe("http://localhost:3000");
    expect(baseUrlFrom({ PORT: "", HUB_BASE_URL: "" })).toBe("http://localhost:3000");
  });

  it("is what env() reads", () => {
    process.env.PORT = "3456";
    delete process.env.HUB_BASE_URL;
    resetEnvCache();
    expect(env().HUB_BASE_URL).toBe(baseUrlFrom(process.env));
    expect(env().HUB_BASE_URL).toBe("http://localhost:3456");
    process.env.HUB_BASE_URL = "https://hub.escola.example/";
    resetEnvCache();
    expect(env().HUB_BASE_URL).toBe(baseUrlFrom(process.env));
  });
});
