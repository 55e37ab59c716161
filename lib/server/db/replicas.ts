// Read replicas: which server answers a read that may lag (docs/decisions/042-read-replicas.md).
// Callers never name a server. A request that tolerates a replica runs inside readsMayLag(); its
// statements that may lag ask database("may-lag") and all get the SAME server, chosen at the first
// one (a read of several statements, such as a whole feed or a OneRoster page, sees one history).
// Everything else, and every statement outside such a scope, reads the primary.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Database } from "./database";
import type { SqlDriver } from "./driver";
import { describeDatabaseError, isDatabaseUnavailable } from "./unavailable";

export interface TReplicaOptions {
  /** A replica whose beat is older than this is not read; its reads go to the primary. */
  maxLagMs: number;
  /** How often the primary's beat is written and each replica's lag read (ms). */
  beatMs: number;
}

interface TReplica {
  name: string;
  db: Database;
  /** Seconds behind the primary at the last check; null when unknown (down, no beat yet). */
  lagSeconds: number | null;
}

interface TScope {
  /** The server this scope's lagging reads use, once the first one has asked. */
  chosen?: Database;
}

const scopes = new AsyncLocalStorage<TScope>();

/**
 * Runs `fn` as a request whose reads may come from a replica: the statements inside it that ask
 * database("may-lag") read one server, a replica within the lag bound or else the primary.
 */
export function readsMayLag<T>(fn: () => Promise<T>): Promise<T> {
  return scopes.run({}, fn);
}

/**
 * A hot standby cancels a statement that conflicts with what it replays (SQLSTATE 40001,
 * "canceling statement due to conflict with recovery"; 57P04 when the database was dropped).
 * The primary has no such conflict: the statement is run there instead.
 */
function isRecoveryConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40001" || code === "57P04";
}

export class ReplicaSet {
  private readonly replicas: TReplica[];
  private readonly timers: NodeJS.Timeout[] = [];
  private next = 0;
  private lastBeatError = 0;

  constructor(
    private readonly primary: Database,
    replicas: { name: string; db: Database }[],
    readonly options: TReplicaOptions,
  ) {
    this.replicas = replicas.map((r) => ({ ...r, lagSeconds: null, db: this.failingOver(r.name, r.db) }));
    const beat = setInterval(() => void this.beat(), options.beatMs);
    const check = setInterval(() => void this.check(), options.beatMs);
    for (const timer of [beat, check]) timer.unref();
    this.timers.push(beat, check);
    void this.beat().then(() => this.check());
  }

  /** Writes the primary's beat (FeedBeat): the replicas' lag and their time-safe moment come from it. */
  async beat(): Promise<void> {
    try {
      await this.primary.sql.query(`SELECT "hub_feed_beat"()`);
    } catch (error) {
      // The primary is down (its own requests say so) or not migrated yet: one line a minute.
      if (Date.now() - this.lastBeatError > 60_000) {
        this.lastBeatError = Date.now();
        console.warn(`Writing the replicas' beat failed (${describeDatabaseError(error)}); replicas are read only while their beat is recent`);
      }
    }
  }

  /** Reads each replica's lag: now − the last beat it replayed (null when it cannot be read). */
  async check(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (replica) => {
        try {
          const [row] = await replica.db.sql.query<{ lag: number | null }>(
            `SELECT greatest(0, extract(epoch FROM clock_timestamp() - b."at"))::float8 AS lag FROM "FeedBeat" b WHERE b."id" = 1`,
          );
          replica.lagSeconds = row?.lag ?? null;
        } catch {
          replica.lagSeconds = null;
        }
      }),
    );
  }

  /** A replica within the lag bound (in turns), or undefined when none is. */
  pick(): Database | undefined {
    const bound = this.options.maxLagMs / 1000;
    const fresh = this.replicas.filter((r) => r.lagSeconds !== null && r.lagSeconds <= bound);
    if (fresh.length === 0) return undefined;
    this.next = (this.next + 1) % fresh.length;
    return fresh[this.next]!.db;
  }

  /** Each replica's lag at the last check, in seconds (null: down or no beat replayed yet). */
  lag(): Array<{ replica: string; seconds: number | null }> {
    return this.replicas.map((r) => ({ replica: r.name, seconds: r.lagSeconds }));
  }

  isReplica(db: Database): boolean {
    return this.replicas.some((r) => r.db === db);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.replicas.map((r) => r.db.close()));
  }

  /**
   * The replica's Database, whose raw statements that fail because the replica is gone or
   * cancelled them (a recovery conflict) run on the primary instead, and whose scope reads the
   * primary from then on. A statement that carries an earlier statement's horizon stays correct
   * there: the primary has ended every transaction the replica had (it is ahead).
   */
  private failingOver(name: string, db: Database): Database {
    const primary = this.primary;
    const sql: SqlDriver = {
      ...db.sql,
      query: async (text, params, options) => {
        try {
          return await db.sql.query(text, params, options);
        } catch (error) {
          if (!isDatabaseUnavailable(error) && !isRecoveryConflict(error)) throw error;
          const replica = this.replicas.find((r) => r.name === name);
          if (replica) replica.lagSeconds = null;
          const scope = scopes.getStore();
          if (scope) scope.chosen = primary;
          return primary.sql.query(text, params, options);
        }
      },
    };
    return { ...db, sql };
  }
}

/** The server for a statement that may lag: the scope's (chosen now if it is the first), or the primary. */
export function laggingReader(primary: Database): Database {
  const scope = scopes.getStore();
  if (!scope || !primary.replicas) return primary;
  if (!scope.chosen || (scope.chosen !== primary && !primary.replicas.isReplica(scope.chosen))) scope.chosen = primary.replicas.pick() ?? primary;
  return scope.chosen;
}

/**
 * The rest of this scope reads the primary: the replica it was reading cannot answer this read as
 * the primary would (it has not replayed a grant the read depends on). Returns the primary.
 */
export function readPrimaryFromNowOn(primary: Database): Database {
  const scope = scopes.getStore();
  if (scope) scope.chosen = primary;
  return primary;
}
