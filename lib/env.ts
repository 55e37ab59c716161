import { z } from "zod";
import { baseUrlFrom } from "./base-url.mjs";

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// Every setting the hub reads, validated once. The README's configuration table mirrors this.
const ZEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgresql:// URL (leave it unset for the embedded database)")
    .optional(),
  // Streaming replicas of DATABASE_URL, comma-separated: the reads that may lag use them
  // (docs/decisions/042-read-replicas.md); a replica further behind than HUB_REPLICA_MAX_LAG_MS is
  // not read until it catches up.
  DATABASE_REPLICA_URL: z
    .string()
    .optional()
    .transform((raw) => (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.every((url) => /^postgres(ql)?:\/\//.test(url)), "DATABASE_REPLICA_URL must be postgresql:// URLs, comma-separated"),
  HUB_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  HUB_DATA_DIR: z.string().min(1).default(".data"),
  HUB_BASE_URL: z.url().optional(),
  HUB_SECRET: z.string().min(32, "HUB_SECRET must have at least 32 characters").optional(),
  // Secrets HUB_SECRET replaced, comma-separated: still read (sealed values, sessions), never
  // written (docs/security.md, "Rotating HUB_SECRET").
  HUB_PREVIOUS_SECRETS: z
    .string()
    .optional()
    .transform((raw) => (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.every((s) => s.length >= 32), "HUB_PREVIOUS_SECRETS: each secret must have at least 32 characters"),
  HUB_TIME_ZONE: z
    .string()
    .default("America/Sao_Paulo")
    .refine(isTimeZone, "HUB_TIME_ZONE must be an IANA time zone such as America/Sao_Paulo"),
  DEMO_TOOL: z.enum(["0", "1"]).optional(),
  // Read by lib/server/log.mjs (server.mjs loads it before any of this); validated here too.
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Tests only: `1` makes GET /test-fault throw, to show what an operator sees of a 500.
  HUB_TEST_FAULTS: z.enum(["0", "1"]).default("0"),
  // PostgreSQL only (docs/decisions/010-database-outages.md).
  HUB_DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  HUB_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  // `0`: this process does not deliver webhooks (docs/webhooks.md); instances share the work otherwise.
  HUB_WEBHOOK_WORKER: z.enum(["0", "1"]).default("1"),
  // An endpoint whose deliveries keep failing this long is disabled (docs/webhooks.md): a day, as
  // the common senders wait; tests shorten it to watch the whole path.
  HUB_WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce.number().int().min(1).max(30 * 86_400).default(86_400),
});

export type TEnv = z.infer<typeof ZEnvSchema> & {
  HUB_BASE_URL: string;
  DEMO_TOOL: "0" | "1";
  /** DEMO_TOOL=1 set by the operator, not by default: only then may the launch tester reach private networks. */
  DEMO_TOOL_EXPLICIT: boolean;
};

let cached: TEnv | undefined;

export function env(): TEnv {
  if (cached) return cached;
  const parsed = ZEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.DATABASE_REPLICA_URL.length > 0 && !e.DATABASE_URL) throw new Error("Invalid configuration:\n  DATABASE_REPLICA_URL: replicas need DATABASE_URL (their primary)");
  cached = {
    ...e,
    // The same rule server.mjs reads it by (lib/base-url.mjs), so its redirect to it cannot disagree.
    HUB_BASE_URL: baseUrlFrom(e),
    // The reference tool provider is part of the embedded demo, off by default elsewhere.
    DEMO_TOOL: e.DEMO_TOOL ?? (e.DATABASE_URL ? "0" : "1"),
    DEMO_TOOL_EXPLICIT: e.DEMO_TOOL === "1",
  };
  // next-auth reads its own variable for the site's URL: the hub's public URL, unless the operator set one.
  process.env.NEXTAUTH_URL ??= cached.HUB_BASE_URL;
  return cached;
}

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
