import { describe, expect, it } from "vitest";
import { serverArgs } from "./server-command.mjs";

describe("serverArgs: how every script starts server.mjs", () => {
  it("gives the server on PostgreSQL the larger young generation the Data API's feeds need", () => {
    expect(serverArgs({ DATABASE_URL: "postgresql://localhost/hub" })).toEqual(["--max-semi-space-size=24", "--heap-growing-percent=100", "server.mjs"]);
  });

  it("gives the server on the embedded database a small one: PostgreSQL's own heap shares its process", () => {
    expect(serverArgs({})).toEqual(["--max-semi-space-size=8", "--heap-growing-percent=100", "server.mjs"]);
  });

  it("puts the caller's flags before server.mjs", () => {
    expect(serverArgs({}, "--cpu-prof").slice(-2)).toEqual(["--cpu-prof", "server.mjs"]);
  });
});
