// Runs before every test file, in the worker that runs it. Files share the worker's modules
// (vitest.config.ts), so each starts from the environment the worker started with: variables a
// file set (HUB_SECRET, HUB_BASE_URL…) are put back and the parsed configuration is read again.
import { resetEnvCache } from "@/lib/env";

const store = globalThis as typeof globalThis & { hubWorkerEnv?: Readonly<Record<string, string | undefined>> };
const initial = (store.hubWorkerEnv ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in initial)) delete process.env[name];
Object.assign(process.env, initial);
resetEnvCache();
