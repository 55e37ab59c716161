import type { TCaseId } from "./build-launch-test-cases";
import type { TLti13CaseId } from "./run-lti13-launch-test";

/** What the launch tester found, case by case (LTI 1.0 or LTI 1.3), as the developer page shows it. */
export interface TLaunchTestCaseResult {
  id: TCaseId | TLti13CaseId;
  label: string;
  description: string;
  expected: "accept" | "refuse";
  /** The tool's HTTP status, or null when no answer came (timeout, refused connection). */
  status: number | null;
  passed: boolean;
  /** Why it failed, or what to keep in mind. */
  note: string | null;
}

export interface TLaunchTestReport {
  toolId: string;
  toolTitle: string;
  launchUrl: string;
  ranAt: string;
  passed: boolean;
  cases: TLaunchTestCaseResult[];
}
