// Repeats, as the very last lines of a Vitest run, why it failed: each unhandled error (name,
// message, the first stack frames, the file that was running) and each failed test's name. CI
// logs are often read from the tail, where the default reporter shows only the counts.
import type { Reporter, SerializedError, TestModule } from "vitest/node";

const FRAMES = 8;

function describeError(error: SerializedError): string {
  const e = error as SerializedError & { VITEST_TEST_PATH?: string; VITEST_TEST_NAME?: string; cause?: SerializedError };
  const head = `${e.name ?? "Error"}: ${e.message ?? ""}`;
  const frames = (e.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line)).slice(0, FRAMES);
  const where = [e.VITEST_TEST_PATH && `while ${e.VITEST_TEST_PATH} ran`, e.VITEST_TEST_NAME && `test "${e.VITEST_TEST_NAME}"`].filter(Boolean).join(", ");
  const cause = e.cause && typeof e.cause === "object" ? `\n  caused by ${describeError(e.cause)}` : "";
  return [head, ...frames, where && `  (${where})`].filter(Boolean).join("\n") + cause;
}

export default class FailureDigest implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const failed: string[] = [];
    for (const testModule of testModules) {
      for (const error of testModule.errors()) failed.push(`${testModule.moduleId}: ${error.message}`);
      for (const test of testModule.children.allTests("failed")) {
        failed.push(`${testModule.moduleId} > ${test.fullName}: ${test.result().errors?.[0]?.message ?? ""}`);
      }
    }
    if (!failed.length && !unhandledErrors.length) return;
    const lines = ["", "── Why this run failed ──"];
    for (const error of unhandledErrors) lines.push(`Unhandled ${describeError(error)}`);
    for (const line of failed) lines.push(`Failed: ${line}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
