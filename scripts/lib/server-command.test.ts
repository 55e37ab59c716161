import { describe, expect, it } from "vitest";
import { serverArgs, serverSpawn } from "./server-command.mjs";

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

  it("serverSpawn starts node with the flags of the very environment it gives the server", () => {
    const env = { NODE_ENV: "production" as const, DATABASE_URL: "postgresql://localhost/hub", PORT: "3999" };
    const [command, args, options] = serverSpawn(env, { cwd: "/srv/hub", stdio: "ignore" }, "--cpu-prof");
    expect(command).toBe(process.execPath);
    expect(args).toEqual(["--max-semi-space-size=24", "--heap-growing-percent=100", "--cpu-prof", "server.mjs"]);
    expect(options).toEqual({ cwd: "/srv/hub", stdio: "ignore", env });
    expect(serverSpawn({ NODE_ENV: "production" }, {})[1][0]).toBe("--max-semi-space-size=8");
  });
});
