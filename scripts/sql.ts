// Runs one SQL statement against a PostgreSQL URL (CI and e2e database set-up).
import pg from "pg";

const [url, statement] = process.argv.slice(2);
if (!url || !statement) {
  console.error("usage: tsx scripts/sql.ts <postgresql-url> <statement>");
  process.exit(2);
}
const client = new pg.Client({ connectionString: url });
await client.connect();
await client.query(statement);
await client.end();
