import { database } from "@/lib/server/db/database";

export interface Health {
  status: "ok" | "degraded";
  database: { engine: "pglite" | "postgres"; status: "ok" | "unreachable"; migrations: number; latencyMs: number };
}

export async function checkHealth(): Promise<Health> {
  const { sql } = database();
  const started = performance.now();
  try {
    const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`);
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    return { status: "ok", database: { engine: sql.kind, status: "ok", migrations: row?.n ?? 0, latencyMs } };
  } catch {
    return { status: "degraded", database: { engine: sql.kind, status: "unreachable", migrations: 0, latencyMs: 0 } };
  }
}
