// The log's building blocks: request ids, the request id on every line, redaction, console lines,
// the path shown in the access log.
import { spawnSync } from "node:child_process";
import { Writable } from "node:stream";
import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { consoleArgsToLine, createLogger, isoTimestamp, pathForLog, requestIdFrom, staticSegments, type RequestContext } from "./log.mjs";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const context = new AsyncLocalStorage<RequestContext>();
  return { lines, context, logger: createLogger(context, destination, "info") };
}

describe("requestIdFrom", () => {
  it("keeps a sane incoming id and replaces anything else with a UUID", () => {
    expect(requestIdFrom("abc-123_X.9")).toBe("abc-123_X.9");
    for (const bad of [undefined, "", "a".repeat(65), 'x"}{', "a b", "é", ["a", "b"]]) {
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});

describe("createLogger", () => {
  it("puts the request id on every line logged inside the request, however deep", async () => {
    const { lines, context, logger } = capture();
    await context.run({ requestId: "req-1" }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      logger.info("deep");
    });
    logger.info("outside");
    expect(lines.map((l) => [l.msg, l.requestId])).toEqual([
      ["deep", "req-1"],
      ["outside", undefined],
    ]);
  });

  it("logs an error's stack on one line", () => {
    const { lines, logger } = capture();
    logger.error({ err: new TypeError("boom") }, "Unhandled error");
    expect(lines).toHaveLength(1);
    expect((lines[0]!.err as { stack: string }).stack).toMatch(/^TypeError: boom\n\s+at /);
  });

  it("removes credential headers and bodies should a line ever carry them", () => {
    const { lines, logger } = capture();
    logger.info({ req: { headers: { authorization: "Bearer s3cr3t", cookie: "sid=s3cr3t", "x-api-key": "s3cr3t", accept: "*/*" } }, body: "password=s3cr3t", password: "s3cr3t" }, "oops");
    expect(JSON.stringify(lines)).not.toContain("s3cr3t");
    expect((lines[0]!.req as { headers: Record<string, string> }).headers).toEqual({ accept: "*/*" });
  });
});

describe("consoleArgsToLine", () => {
  it("keeps the Error for its stack and prints other objects shallowly on one line", () => {
    const error = new Error("pool failed");
    const connection = { host: "db", client: { socket: { deep: { deeper: "x".repeat(10_000) } } } };
    const [fields, text] = consoleArgsToLine(["⨯", connection, error]);
    expect(fields).toEqual({ err: error });
    expect(text).not.toContain("\n");
    expect(text).not.toContain("deeper");
    expect(text.length).toBeLessThanOrEqual(1000);
  });
});

describe("pathForLog", () => {
  const known = staticSegments({ "/manager/v1/data/[orgId]/route": "/manager/v1/data/[orgId]", "/(portal)/launch/[placementId]/route": "/launch/[placementId]" });

  it("drops the query and masks every segment that is not a static segment of a route", () => {
    expect(pathForLog("/manager/v1/data/org-1?api_key=k&cpf=529.982.247-25", known)).toBe("/manager/v1/data/:");
    expect(pathForLog("/launch/abc", known)).toBe("/launch/:");
    expect(pathForLog("/529.982.247-25/ana.souza@x.br", known)).toBe("/:/:");
    expect(pathForLog("/", known)).toBe("/");
  });

  it("gives a path remembered from an earlier request the same answer, per set of routes", () => {
    const other = staticSegments({ "/cracha/[token]/page": "/cracha/[token]" });
    for (let i = 0; i < 3; i++) {
      expect(pathForLog(`/launch/abc?x=${i}`, known)).toBe("/launch/:");
      expect(pathForLog("/launch/abc", other)).toBe("/:/:");
      expect(pathForLog("/cracha/abc", other)).toBe("/cracha/:");
    }
    // More paths than are remembered: each still masked.
    for (let i = 0; i < 1100; i++) expect(pathForLog(`/launch/${i}`, known)).toBe("/launch/:");
    expect(pathForLog(`/launch/${"x".repeat(300)}`, known)).toBe("/launch/:");
  });
});

describe("isoTimestamp", () => {
  it("writes what pino's isoTime writes, at every millisecond of a second and across seconds", () => {
    vi.useFakeTimers();
    try {
      for (const at of [Date.UTC(2026, 10, 29, 15, 16, 9, 999), Date.UTC(2026, 10, 29, 15, 16, 10, 0), Date.UTC(2026, 10, 29, 15, 16, 10, 7), Date.UTC(2026, 10, 29, 15, 16, 10, 42), Date.UTC(2026, 10, 29, 15, 16, 10, 123), Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1)]) {
        vi.setSystemTime(at);
        expect(isoTimestamp(at)).toBe(pino.stdTimeFunctions.isoTime());
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads the clock when not given a time", () => {
    const before = Date.now();
    const [, iso] = /^,"time":"(.+)"$/.exec(isoTimestamp())!;
    expect(Date.parse(iso!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(iso!)).toBeLessThanOrEqual(Date.now());
  });
});

describe("requestLineLog", () => {
  it("writes the lines it gathered when the process exits, whole and in order", () => {
    const script = `
      import { requestLineLog, runWithRequestId } from "./lib/server/log.mjs";
      const line = requestLineLog();
      for (let i = 0; i < 3; i++) runWithRequestId("r" + i, () => line.info({ method: "GET", path: "/", status: 200, ms: i }, "request"));
      process.exit(0);
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd(), encoding: "utf8", env: { ...process.env, LOG_LEVEL: "info" } });
    expect(run.status).toBe(0);
    const lines = run.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.msg, l.requestId, l.ms])).toEqual([["request", "r0", 0], ["request", "r1", 1], ["request", "r2", 2]]);
    expect(lines.every((l) => typeof l.time === "string" && l.pid === run.pid)).toBe(true);
  });
});
