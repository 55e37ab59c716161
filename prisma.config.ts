// Configures the Prisma CLI only (generate, migrate dev). The app applies migrations itself
// (lib/server/db/migrate.ts) because the CLI's WASM schema engine cannot talk to real
// PostgreSQL through @prisma/adapter-pg. See docs/decisions/001-database-and-migrations.md.
import path from "node:path";
import { PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { defineConfig } from "prisma/config";

// `prisma migrate dev` replays migrations into a shadow database through query(), and PGlite
// refuses several statements in one prepared query. Parameterless scripts go through exec().
class MigrationPGlite extends PGlite {
  override async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    if ((!params || params.length === 0) && sql.includes(";")) {
      const results = await this.exec(sql, options);
      const last = results.at(-1);
      return (last ?? { rows: [], fields: [] }) as Results<T>;
    }
    return super.query<T>(sql, params, options);
  }
}

const devDir = path.join(import.meta.dirname, ".tmp", "prisma-dev");

export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  engine: "js",
  experimental: { adapter: true },
  async adapter() {
    return new PrismaPGlite(new MigrationPGlite(devDir));
  },
});
