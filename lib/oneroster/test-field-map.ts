// Test fixture (no production code imports it): a `users`-like field map over a one-table schema
// that the PGlite test creates (query-sql.pglite.test.ts), shaped like a real endpoint's map.
import type { TFieldMap } from "./field-map";

export const USER_STATUSES = ["active", "tobedeleted"] as const;

export const TEST_USERS_TABLE = `
  CREATE TYPE status_type AS ENUM ('active', 'tobedeleted');
  CREATE TABLE users (
    id text PRIMARY KEY,
    status status_type NOT NULL,
    date_last_modified timestamptz NOT NULL,
    given_name text NOT NULL,
    family_name text NOT NULL,
    middle_name text,
    enabled boolean NOT NULL,
    birth_date date,
    grade numeric,
    org_id text NOT NULL,
    secret text
  );`;

export const TEST_USERS_FIELDS: TFieldMap = {
  sourcedId: { sql: "u.id", type: "string" },
  status: { sql: "u.status", type: "enum", enumValues: USER_STATUSES },
  dateLastModified: { sql: "u.date_last_modified", type: "datetime" },
  givenName: { sql: "u.given_name", type: "string" },
  familyName: { sql: "u.family_name", type: "string" },
  middleName: { sql: "u.middle_name", type: "string" },
  enabledUser: { sql: "u.enabled", type: "boolean" },
  birthDate: { sql: "u.birth_date", type: "date" },
  grade: { sql: "u.grade", type: "number" },
  "primaryOrg.sourcedId": { sql: "u.org_id", type: "string" },
  secret: { sql: "u.secret", type: "string", filterable: false, sortable: false },
};
