import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/** The raw SQL surface both engines share; used by the migration runner and hot read paths. */
export interface SqlRunner {
  /** Runs a parameterless script that may hold several statements. */
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface SqlDriver extends SqlRunner {
  readonly kind: "pglite" | "postgres";
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function pgliteDriver(client: PGlite): SqlDriver {
  const runner = (c: Pick<PGlite, "exec" | "query">): SqlRunner => ({
    exec: async (sql) => {
      await c.exec(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await c.query<T>(sql, params)).rows,
  });
  return {
    kind: "pglite",
    ...runner(client),
    transaction: (fn) => client.transaction((tx) => fn(runner(tx))),
    close: () => client.close(),
  };
}

export function postgresDriver(pool: pg.Pool): SqlDriver {
  const runner = (c: pg.Pool | pg.PoolClient): SqlRunner => ({
    exec: async (sql) => {
      await c.query(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) =>
      (await c.query(sql, params)).rows as T[],
  });
  return {
    kind: "postgres",
    ...runner(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(runner(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
