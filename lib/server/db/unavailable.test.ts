// isDatabaseUnavailable against the errors pg and Prisma really throw, staged with a TCP proxy
// (test/tcp-proxy.ts) or a port nothing listens on, and the one mapping to 503 + Retry-After.
// Faults that need no PostgreSQL behind them (refused, reset, hung at connect, "starting up") run
// on both engines' CI legs; those that need a live server (a backend killed mid-statement, a
// network cut mid-query, a statement timeout, an idle connection killed) only with DATABASE_URL.
import net from "node:net";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ZodError, z } from "zod";
import { createDatabase, type Database } from "@/lib/server/db/database";
import { AppError, RETRY_AFTER_SECONDS } from "@/lib/errors";
import { toAppError, toResponse } from "@/lib/server/http/error-response";
import { closedPort, startTcpProxy, type TcpProxy } from "@/test/tcp-proxy";
import { setupTestDatabase } from "@/test/database";
import { CommitOutcomeUnknownError, transaction } from "./transaction";
import { isDatabaseUnavailable } from "./unavailable";

const t = setupTestDatabase();
const opened: Database[] = [];
const servers: net.Server[] = [];
const held = new Set<net.Socket>();

afterEach(async () => {
  while (opened.length) await opened.pop()!.close().catch(() => undefined);
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

function open(url: string, options: { connectTimeoutMs?: number; statementTimeoutMs?: number } = {}): Database {
  const db = createDatabase({ url, connectTimeoutMs: 1_000, ...options });
  opened.push(db);
  return db;
}

/** The error each way into the database throws: a Prisma model query, a Prisma transaction, raw SQL, a raw transaction. */
async function failures(db: Database): Promise<Record<string, unknown>> {
  const caught = async (p: () => Promise<unknown>) => {
    try {
      await p();
      return new Error("did not fail");
    } catch (error) {
      return error;
    }
  };
  return {
    prismaQuery: await caught(() => db.prisma.institution.count()),
    prismaTransaction: await caught(() => db.prisma.$transaction((tx) => tx.institution.count())),
    sqlQuery: await caught(() => db.sql.query("SELECT 1")),
    sqlTransaction: await caught(() => db.sql.transaction((tx) => tx.query("SELECT 1"))),
  };
}

async function expectUnavailable(errors: Record<string, unknown>): Promise<void> {
  for (const [path, error] of Object.entries(errors)) {
    expect({ path, unavailable: isDatabaseUnavailable(error) }).toEqual({ path, unavailable: true });
  }
}

async function listen(onConnection: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer((socket) => {
    socket.on("error", () => undefined);
    held.add(socket);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

const urlAt = (port: number) => `postgresql://hub:hub@127.0.0.1:${port}/hub`;

describe("a database that cannot be reached (any engine)", () => {
  it("refused: every way in fails with an error recognised as unavailable", async () => {
    await expectUnavailable(await failures(open(urlAt(await closedPort()))));
  });

  it("reset as soon as it connects", async () => {
    await expectUnavailable(await failures(open(urlAt(await listen((socket) => socket.destroy())))));
  });

  it("accepts connections and never answers: fails after the connect timeout, not never", async () => {
    const port = await listen(() => undefined);
    const db = open(urlAt(port), { connectTimeoutMs: 300 });
    const started = Date.now();
    await expectUnavailable(await failures(db));
    // Four attempts of 300 ms each, one after the other; a hang would hit the test timeout.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("answers 57P03 'the database system is starting up' (a restart)", async () => {
    const proxy = await startTcpProxy({ host: "127.0.0.1", port: await closedPort() });
    await proxy.setMode("starting");
    try {
      const errors = await failures(open(proxy.urlFor(urlAt(1))));
      await expectUnavailable(errors);
      expect(JSON.stringify(Object.values(errors).map((e) => String((e as Error).message)))).toContain("starting up");
    } finally {
      await proxy.close();
    }
  });
});

describe("what is not an outage stays a 4xx or a 500", () => {
  it("a constraint violation, an unknown table, a syntax error, bad input and a plain bug", async () => {
    const { prisma, sql } = t.db;
    const email = `dup-${randomBytes(4).toString("hex")}@teste.br`;
    await prisma.person.create({ data: { name: "Um", email } });
    const duplicate = await prisma.person.create({ data: { name: "Dois", email } }).catch((e: unknown) => e);
    const noTable = await sql.query("SELECT * FROM nao_existe").catch((e: unknown) => e);
    const syntax = await sql.query("SELEC 1").catch((e: unknown) => e);
    const zod = (() => {
      try {
        z.object({ a: z.string() }).parse({});
      } catch (e) {
        return e;
      }
    })();
    for (const error of [duplicate, noTable, syntax, zod, new TypeError("x is undefined"), new AppError("not_found", "Não encontrado."), null, "text"]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
    expect(zod).toBeInstanceOf(ZodError);
    expect(toAppError(syntax).code).toBe("internal");
  });
});

describe("the one mapping: 503, Retry-After and a message", () => {
  it("toResponse turns an outage into 503 with Retry-After and a readable message, and nothing else into 503", async () => {
    const [refused] = Object.values(await failures(open(urlAt(await closedPort()))));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const response = toResponse(refused, { headers: { "Cache-Control": "no-store" } });
    warn.mockRestore();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { message: string };
    expect(body).toEqual({ message: expect.stringMatching(/banco de dados.*indisponível/) });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|P1001/);
    const other = toResponse(new AppError("not_found", "Não encontrado."));
    expect([other.status, other.headers.get("retry-after")]).toEqual([404, null]);
  });
});

describe.runIf(!!process.env.DATABASE_URL)("faults on a live PostgreSQL (through a TCP proxy)", () => {
  let proxy: TcpProxy;
  let url: string;
  let admin: pg.Client;

  beforeAll(async () => {
    const target = new URL(t.url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    url = proxy.urlFor(t.url!);
    admin = new pg.Client({ connectionString: t.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await proxy?.close();
  });

  it("a backend terminated mid-statement (57P01, as in a fast shutdown)", async () => {
    const app = `hub_fault_${randomBytes(4).toString("hex")}`;
    const db = open(`${url}${url.includes("?") ? "&" : "?"}application_name=${app}`);
    const slow = [db.sql.query("SELECT pg_sleep(5)"), db.prisma.$transaction((tx) => tx.$executeRawUnsafe("SELECT pg_sleep(5)"))].map((p) =>
      p.then(() => new Error("did not fail"), (e: unknown) => e),
    );
    await vi.waitFor(async () => {
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND query LIKE '%pg_sleep(5)%'`, [app]);
      expect(rows[0].n).toBe(2);
    });
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [app]);
    for (const error of await Promise.all(slow)) {
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(JSON.stringify([(error as Error).message, (error as { meta?: unknown }).meta])).toMatch(/57P01|terminating connection/);
    }
    // The pool replaces the dead connections by itself.
    expect(await db.sql.query("SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
  });

  it("the network cut mid-query, then restored: unavailable, then working again with no restart", async () => {
    const db = open(url);
    expect(await db.prisma.institution.count()).toBeGreaterThanOrEqual(0);
    const inFlight = [db.sql.query("SELECT pg_sleep(2)"), db.prisma.$queryRawUnsafe("SELECT pg_sleep(2)::text")].map((p) => p.then(() => new Error("did not fail"), (e: unknown) => e));
    await new Promise((r) => setTimeout(r, 200));
    await proxy.setMode("down");
    for (const error of await Promise.all(inFlight)) expect(isDatabaseUnavailable(error)).toBe(true);
    await expectUnavailable(await failures(db));
    await proxy.setMode("pass");
    expect(await db.prisma.institution.count()).toBeGreaterThanOrEqual(0);
    expect(await db.sql.transaction((tx) => tx.query("SELECT 1 AS ok"))).toEqual([{ ok: 1 }]);
  });

  it("the network cut while a transaction commits: the outcome is unknown, said as such, not 'nothing written'", async () => {
    const db = open(url);
    expect(await db.prisma.institution.count()).toBeGreaterThanOrEqual(0);
    // Every statement has run; the cut comes as the COMMIT leaves.
    const cutAtCommit = transaction(
      async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        await proxy.setMode("down");
        return "done";
      },
      { timeout: 10_000, maxWait: 5_000 },
      db.prisma,
    ).then(() => new Error("did not fail"), (e: unknown) => e);
    const atCommit = await cutAtCommit;
    await proxy.setMode("pass");
    expect(atCommit).toBeInstanceOf(CommitOutcomeUnknownError);
    expect(toAppError(atCommit).status).toBe(503);
    // A cut before the last statement rolled the transaction back: the usual unavailable error.
    const beforeCommit = await transaction(
      async (tx) => {
        await proxy.setMode("down");
        await tx.$queryRawUnsafe("SELECT 1");
      },
      { timeout: 10_000, maxWait: 5_000 },
      db.prisma,
    ).then(() => new Error("did not fail"), (e: unknown) => e);
    await proxy.setMode("pass");
    expect(isDatabaseUnavailable(beforeCommit)).toBe(true);
    expect(beforeCommit).not.toBeInstanceOf(CommitOutcomeUnknownError);
  });

  it("a connection that stops answering mid-query fails after statement timeout + 5 s, not never", async () => {
    const db = open(url, { statementTimeoutMs: 500 });
    expect(await db.sql.query("SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
    const pending = db.sql.query("SELECT pg_sleep(0.3)").then(() => new Error("did not fail"), (e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    proxy.freeze();
    const error = await pending;
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect((error as Error).message).toBe("Query read timeout");
    await proxy.setMode("down");
    await proxy.setMode("pass");
  });

  it("a statement longer than the statement timeout is cancelled by the server (57014), and the pool keeps working", async () => {
    const db = open(url, { statementTimeoutMs: 200 });
    for (const error of [await db.sql.query("SELECT pg_sleep(1)").catch((e: unknown) => e), await db.prisma.$queryRawUnsafe("SELECT pg_sleep(1)::text").catch((e: unknown) => e)]) {
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
    expect(await db.sql.query("SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
  });

  it("transactions whose connection dies give it back: more such deaths than the pool has connections, and it still works", async () => {
    const own = await startTcpProxy({ host: new URL(t.url!).hostname, port: Number(new URL(t.url!).port || 5432) });
    try {
      const db = open(own.urlFor(t.url!));
      // lib/db.ts opens at most 10 connections; a leaked one per round would exhaust it at round 11.
      for (let round = 0; round < 12; round++) {
        const prismaTx = db.prisma.$transaction(async (tx) => {
          await tx.$executeRawUnsafe("SELECT 1");
          await own.setMode("down");
          await own.setMode("pass");
          await tx.$executeRawUnsafe("SELECT 2");
        });
        expect(isDatabaseUnavailable(await prismaTx.catch((e: unknown) => e))).toBe(true);
        const sqlTx = db.sql.transaction(async (tx) => {
          await tx.query("SELECT 1");
          await own.setMode("down");
          await own.setMode("pass");
          await tx.query("SELECT 2");
        });
        expect(isDatabaseUnavailable(await sqlTx.catch((e: unknown) => e))).toBe(true);
      }
      expect(await db.prisma.$transaction((tx) => tx.$queryRawUnsafe<Array<{ ok: number }>>("SELECT 1 AS ok"))).toEqual([{ ok: 1 }]);
      expect(await db.sql.transaction((tx) => tx.query("SELECT 1 AS ok"))).toEqual([{ ok: 1 }]);
    } finally {
      await own.close();
    }
  });

  it("idle connections killed by a restart: one log line each, no uncaught exception, and the next query works", async () => {
    const app = `hub_idle_${randomBytes(4).toString("hex")}`;
    const db = open(`${url}${url.includes("?") ? "&" : "?"}application_name=${app}`);
    await Promise.all([db.sql.query("SELECT pg_sleep(0.1)"), db.prisma.$queryRawUnsafe("SELECT pg_sleep(0.1)::text"), db.sql.query("SELECT 1")]);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const { rowCount } = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [app]);
      expect(rowCount).toBeGreaterThan(0);
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(rowCount!), { timeout: 5_000 });
      for (const [line, ...rest] of warn.mock.calls) {
        expect(rest).toEqual([]);
        expect(line).toMatch(/^Database connection lost while idle \(57P01\)/);
      }
      expect(await db.prisma.institution.count()).toBeGreaterThanOrEqual(0);
      expect(uncaught).toEqual([]);
    } finally {
      warn.mockRestore();
      process.off("uncaughtException", onUncaught);
    }
  });
});
