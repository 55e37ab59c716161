import { db } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { readThrottle, recordFailure } from "@/lib/server/auth/throttle";
import { decryptSecret } from "@/lib/server/crypto/secret-box";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import { findMemberTool } from "../find-member-tool";
import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { buildLaunchTestCases } from "./build-launch-test-cases";
import { postLaunch } from "./post-launch";
import { resolveLaunchTarget, type TLookupAll } from "./resolve-launch-target";
import { runLti13LaunchTest } from "./run-lti13-launch-test-report";
import type { TLaunchTestCaseResult, TLaunchTestReport } from "./launch-test-report";

export type { TLaunchTestCaseResult, TLaunchTestReport } from "./launch-test-report";

export interface RunLaunchTestOptions {
  actorPersonId: string;
  toolId: string;
  /** Defaults to demo mode set explicitly (DEMO_TOOL=1 in the environment, not its default). */
  allowPrivateNetwork?: boolean;
  /** Per request. */
  timeoutMs?: number;
  lookup?: TLookupAll;
  /** Unix seconds. */
  now?: () => number;
}

export const LAUNCH_TEST_TIMEOUT_MS = 5_000;
/** Each run sends 9 requests from the hub's server: bounded so the tester is not a scanner. */
export const LAUNCH_TEST_RUNS_PER_WINDOW = 30;

function isAccepted(status: number): boolean {
  // A tool may answer a good launch with its page (2xx) or by redirecting into its own session
  // (3xx, not followed).
  return status >= 200 && status < 400;
}

/** Why an answer to a launch that had to be refused is wrong (the spec's refusal is exactly 401). */
function refusalProblem(status: number): string {
  if (status >= 200 && status < 300) return "A ferramenta aceitou um lançamento que deveria recusar.";
  if (status >= 300 && status < 400) return `A ferramenta redirecionou (${status}) em vez de recusar; a especificação pede 401.`;
  return `A ferramenta recusou, mas com ${status}; a especificação pede 401.`;
}

/**
 * Sends the tester's launches from the hub's server to one of the person's tools and reports,
 * per case, what the tool answered. The target is resolved and checked once (no private ranges
 * outside demo mode) and every request connects only to the checked addresses.
 */
export async function runLaunchTest(options: RunLaunchTestOptions): Promise<TLaunchTestReport> {
  const { actorPersonId, toolId, timeoutMs = LAUNCH_TEST_TIMEOUT_MS } = options;
  const tool = await findMemberTool({ personId: actorPersonId, toolId });
  const throttleKey = `launch-test:${actorPersonId}`;
  const throttle = await readThrottle(throttleKey);
  if (throttle.lockedUntil) throw new AppError("too_many_requests", "Muitos testes seguidos. Aguarde alguns minutos e tente de novo.");
  await recordFailure(throttleKey, LAUNCH_TEST_RUNS_PER_WINDOW);
  // A tool registered for LTI 1.3 gets the LTI 1.3 cases (issue #21).
  const lti13 = await db().toolLti13.findUnique({ where: { toolId: tool.id } });
  if (lti13) {
    const report = await runLti13LaunchTest({ tool, registration: lti13, allowPrivateNetwork: options.allowPrivateNetwork ?? env().DEMO_TOOL_EXPLICIT, timeoutMs, lookup: options.lookup, now: options.now });
    await auditLaunchTest(actorPersonId, tool, report);
    return report;
  }

  const resolved = await resolveLaunchTarget({
    launchUrl: tool.launchUrl,
    allowPrivateNetwork: options.allowPrivateNetwork ?? env().DEMO_TOOL_EXPLICIT,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  if (!resolved.ok) throw new AppError("bad_request", resolved.message, { launchUrl: resolved.message });

  const secretRow = await db().tool.findUniqueOrThrow({ where: { id: tool.id }, select: { sharedSecretEnc: true } });
  let sharedSecret: string;
  try {
    sharedSecret = decryptSecret(secretRow.sharedSecretEnc, LTI_SECRET_PURPOSE);
  } catch {
    throw new AppError("conflict", "O segredo desta ferramenta não pôde ser lido. Cadastre um novo segredo e tente de novo.");
  }

  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const cases = buildLaunchTestCases({ launchUrl: tool.launchUrl, consumerKey: tool.consumerKey, sharedSecret, hubBaseUrl: env().HUB_BASE_URL, now: now() });
  const results: TLaunchTestCaseResult[] = [];
  let unreachable: string | null = null;
  for (const testCase of cases) {
    const base = { id: testCase.id, label: testCase.label, description: testCase.description, expected: testCase.expect };
    if (unreachable) {
      results.push({ ...base, status: null, passed: false, note: `Não enviado: ${unreachable}` });
      continue;
    }
    const answer = await postLaunch({ target: resolved.target, fields: testCase.fields, timeoutMs });
    if (answer.status === null) {
      // Nothing else will get through either; 9 timeouts would only make the developer wait.
      if (testCase.id === "valid") unreachable = "a ferramenta não respondeu ao lançamento válido.";
      results.push({ ...base, status: null, passed: false, note: answer.error });
      continue;
    }
    if (testCase.expect === "accept") {
      const accepted = isAccepted(answer.status);
      results.push({
        ...base,
        status: answer.status,
        passed: accepted,
        note: accepted ? null : "A ferramenta recusou um lançamento válido. Confira a consumer key, o segredo e o endereço cadastrados.",
      });
      continue;
    }
    const dependency = testCase.dependsOn ? results.find((r) => r.id === testCase.dependsOn) : undefined;
    if (dependency && !dependency.passed) {
      results.push({ ...base, status: answer.status, passed: false, note: "Inconclusivo: o lançamento original foi recusado, então a repetição não prova nada." });
      continue;
    }
    // The spec fixes the refusal: "the status is 401 and no private resource is shown".
    const passed = answer.status === 401;
    results.push({ ...base, status: answer.status, passed, note: passed ? null : refusalProblem(answer.status) });
  }

  const report: TLaunchTestReport = {
    toolId: tool.id,
    toolTitle: tool.title,
    launchUrl: tool.launchUrl,
    ranAt: new Date().toISOString(),
    passed: results.every((r) => r.passed),
    cases: results,
  };
  await auditLaunchTest(actorPersonId, tool, report);
  return report;
}

function auditLaunchTest(actorPersonId: string, tool: { id: string; edtechId: string }, report: TLaunchTestReport): Promise<void> {
  return transaction((tx) =>
    recordAudit(tx, {
      actorPersonId,
      action: "tool.launch_test",
      targetType: "tool",
      targetId: tool.id,
      edtechId: tool.edtechId,
      details: { launchUrl: report.launchUrl, passed: report.passed, failedCases: report.cases.filter((r) => !r.passed).map((r) => r.id) },
    }),
  );
}
