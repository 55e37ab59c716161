import { createHash } from "node:crypto";
import { parse, PGlite, protocol } from "@electric-sql/pglite";
import pg from "pg";
import { isDatabaseUnavailable } from "./unavailable";

export interface QueryOptions {
  /**
   * Keep the statement prepared on each connection (PostgreSQL; PGlite outside a transaction):
   * parse and plan once, then only bind and execute. For hot statements whose text is constant
   * and whose plan does not depend on the values (an indexed lookup by key), and for a text a
   * request runs many times over (a whole Data API feed's chunks: one text per entity and subtree
   * size); never for text that differs from one request to the next, which would pile up
   * statements on every connection.
   */
  prepared?: boolean;
}

/** The raw SQL surface both engines share; used by the migration runner and hot read paths. */
export interface SqlRunner {
  /** Runs a parameterless script that may hold several statements. */
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
}

// A prepared statement's name is derived from its text, so one text always has one name and
// two texts never share one (pg refuses a name reused for another text). PostgreSQL keeps each
// prepared statement, with its plan, on every connection that ran it until the connection closes.
// Texts the hub builds (a Data API feed's chunks: one per entity, subtree size and filter shape)
// are many across a large hub, so at most PREPARED_TEXTS texts are named per driver (a process
// has one; a test file opens its own); a text beyond them runs unprepared, as any other
// statement does, with the same answer. The hub's constant texts are about thirty, so a hundred
// or so built texts fit beside them.
export const PREPARED_TEXTS = 128;
function statementNames(): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  return (sql) => {
    let name = names.get(sql);
    if (!name && names.size < PREPARED_TEXTS) {
      name = `hub_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`;
      names.set(sql, name);
    }
    return name;
  };
}

export interface SqlDriver extends SqlRunner {
  readonly kind: "pglite" | "postgres";
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on one connection held for its duration, each statement in its own implicit
   * transaction: for statements that cannot run inside a transaction block (CREATE INDEX
   * CONCURRENTLY) and for session-level advisory locks around them.
   */
  session<T>(fn: (conn: SqlRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A prepared text on PGlite, outside a transaction. PGlite's `query()` sends every statement
 * unnamed, so it is parsed and planned on every call, and in WebAssembly planning costs more than
 * running a hot statement: the launch's placement statement took 2.4–3.8 ms as is, 0.6–1.0 ms
 * prepared (docs/decisions/034). The text is parsed once as a named statement, with its parameter
 * types; each call binds, describes and executes it. These are the messages and the locks
 * `query()` itself uses: its transaction lock, so the statement never runs inside another
 * caller's open transaction, and its query lock. Parameters and rows go through PGlite's own
 * serializers and `parseResults`, so the answer is the one `query()` gives. Undefined when the
 * text gets no name (PREPARED_TEXTS reached): the caller runs it as any other.
 */
function pglitePreparedQuery(client: PGlite): <T>(sql: string, params: unknown[]) => Promise<T[] | undefined> {
  const statementName = statementNames();
  const parameterTypes = new Map<string, number[]>();
  return async <T>(sql: string, params: unknown[]) => {
    const name = statementName(sql);
    if (!name) return undefined;
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const send = async (message: Uint8Array) => (await client.execProtocol(message, { syncToFs: false })).messages;
        // The first call parses the named statement and reads its parameter types.
        const typesOf = async (): Promise<number[]> => {
          const known = parameterTypes.get(name);
          if (known) return known;
          await send(protocol.serialize.parse({ name, text: sql }));
          const types = parse.parseDescribeStatementResults(await send(protocol.serialize.describe({ type: "S", name })));
          parameterTypes.set(name, types);
          return types;
        };
        const messages = [];
        try {
          const types = await typesOf();
          const values = params.map((value, i) => {
            if (value === null || value === undefined) return null;
            const serialize = client.serializers[types[i]!];
            return serialize ? serialize(value) : String(value);
          });
          messages.push(...(await send(protocol.serialize.bind({ statement: name, values }))));
          messages.push(...(await send(protocol.serialize.describe({ type: "P" }))));
          messages.push(...(await send(protocol.serialize.execute({}))));
        } finally {
          messages.push(...(await send(protocol.serialize.sync())));
        }
        await client.syncToFs();
        return (parse.parseResults(messages, client.parsers)[0]?.rows ?? []) as T[];
      }),
    );
  };
}

export function pgliteDriver(client: PGlite): SqlDriver {
  const prepared = pglitePreparedQuery(client);
  const runner = (c: Pick<PGlite, "exec" | "query">, outside: boolean): SqlRunner => ({
    exec: async (sql) => {
      await c.exec(sql);
    },
    query: async <T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) =>
      (options.prepared && outside ? await prepared<T>(sql, params) : undefined) ?? (await c.query<T>(sql, params)).rows,
  });
  return {
    kind: "pglite",
    ...runner(client, true),
    transaction: (fn) => client.transaction((tx) => fn(runner(tx, false))),
    // One connection only: the client itself.
    session: (fn) => fn(runner(client, true)),
    close: () => client.close(),
  };
}

export function postgresDriver(pool: pg.Pool): SqlDriver {
  const statementName = statementNames();
  const runner = (c: pg.Pool | pg.PoolClient): SqlRunner => ({
    exec: async (sql) => {
      await c.query(sql);
    },
    query: async <T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) => {
      const name = options.prepared ? statementName(sql) : undefined;
      return (await (name ? c.query({ name, text: sql, values: params }) : c.query(sql, params))).rows as T[];
    },
  });
  return {
    kind: "postgres",
    ...runner(pool),
    transaction: (fn) =>
      withClient(
        pool,
        async (client) => {
          await client.query("BEGIN");
          const result = await fn(runner(client));
          await client.query("COMMIT");
          return result;
        },
        {
          reuse: true,
          // Rolled back unless the connection is gone; a failed ROLLBACK closes the connection too.
          onError: (client, error) => (isDatabaseUnavailable(error) ? Promise.resolve(error) : client.query("ROLLBACK").then(() => undefined, (rollbackError: unknown) => rollbackError)),
        },
      ),
    // A session may leave state behind (an advisory lock after a failure): never reused.
    session: (fn) => withClient(pool, (client) => fn(runner(client)), { reuse: false, onError: (_, error) => Promise.resolve(isDatabaseUnavailable(error) ? error : undefined) }),
    close: () => pool.end(),
  };
}

/**
 * Runs `fn` on a client checked out of the pool. `onError` gets the error `fn` threw and returns
 * what broke the connection, if anything (it is then closed, not reused); `reuse: false` closes
 * it in every case.
 */
async function withClient<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  options: { reuse: boolean; onError: (client: pg.PoolClient, error: unknown) => Promise<unknown> },
): Promise<T> {
  const client = await pool.connect();
  // A checked-out client has no listener of the pool's: without this one, a connection lost
  // between two statements would be an uncaughtException. The statement in flight (or the
  // next one) fails with the same error, which is what the caller sees.
  const ignore = () => undefined;
  client.on("error", ignore);
  let broken: unknown;
  try {
    return await fn(client);
  } catch (error) {
    broken = await options.onError(client, error);
    throw error;
  } finally {
    client.removeListener("error", ignore);
    // Releasing with an error (or true) makes the pool close the connection instead of reusing it.
    client.release(broken instanceof Error ? broken : !options.reuse);
  }
}
