import { AppError } from "@/lib/errors";
import type { TLaunchTestReport } from "./launch-test-report";
import { LTI13_CASES, pinnedExchange, runLti13Cases } from "./run-lti13-launch-test";
import { resolveLaunchTarget, type TLookupAll } from "./resolve-launch-target";

/** The LTI 1.3 tester's report for one tool: its login URL and registered redirect URIs checked first. */
export async function runLti13LaunchTest(options: {
  tool: { id: string; title: string };
  registration: { clientId: string; deploymentId: string; loginUrl: string; targetLinkUri: string; redirectUris: string[] };
  allowPrivateNetwork: boolean;
  timeoutMs: number;
  lookup?: TLookupAll;
  now?: () => number;
}): Promise<TLaunchTestReport> {
  const { registration } = options;
  const resolve = (url: string) => resolveLaunchTarget({ launchUrl: url, allowPrivateNetwork: options.allowPrivateNetwork, ...(options.lookup ? { lookup: options.lookup } : {}) });
  const login = await resolve(registration.loginUrl);
  if (!login.ok) throw new AppError("bad_request", login.message, { launchUrl: login.message });
  const exchange = pinnedExchange({
    login: login.target,
    // Only a redirect URI the tool registered is ever posted to.
    resolveRedirect: async (url) => {
      if (!registration.redirectUris.includes(url)) return null;
      const target = await resolve(url);
      return target.ok ? target.target : null;
    },
    timeoutMs: options.timeoutMs,
  });
  const results = await runLti13Cases({ registration, exchange, nowSeconds: (options.now ?? (() => Math.floor(Date.now() / 1000)))() });
  const cases = results.map((result) => {
    const meta = LTI13_CASES.find((c) => c.id === result.id)!;
    return { ...result, label: meta.label, description: meta.description, expected: meta.expect };
  });
  return { toolId: options.tool.id, toolTitle: options.tool.title, launchUrl: registration.loginUrl, ranAt: new Date().toISOString(), passed: cases.every((c) => c.passed), cases };
}
