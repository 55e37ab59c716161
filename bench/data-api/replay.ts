// A statement the hub sent, captured by the growth bench (growth.ts, rosteringStatements) and sent
// again on a bench connection: "its own SQL", and the floor's (oneroster-floor.ts).
import type pg from "pg";

export interface TStatement {
  sql: string;
  params: unknown[];
  /** Set when the hub sent it as a prepared statement: replayed prepared too, so it runs the same (generic) plan. */
  name?: string;
}

export function replay(pool: pg.Pool, statement: TStatement): Promise<pg.QueryResult> {
  return statement.name ? pool.query({ name: statement.name, text: statement.sql, values: statement.params }) : pool.query(statement.sql, statement.params);
}
