// The Node.js half of instrumentation.ts: registers the routes server.mjs answers without Next's
// router, with the route files' own handlers (lib/server/http/hot-routes.ts,
// docs/decisions/021-hot-routes-beside-next.md), starts the webhook worker (docs/webhooks.md),
// stopped with the server, and gives the metrics their webhook query (docs/operations.md).
export async function registerNode(): Promise<void> {
  const [{ registerHotRoutes, registerKeptPages, registerShutdownTask }, { flushAccessLogs }, { launchPage }, { handleTokenRequest }, { handleOneRosterTokenRequest }, userInfo, data, summary, rostering, authorize, lti13Authorize, { respondCardSignIn }, { signInPageKey }, chooseProfile] = await Promise.all([
    import("@/lib/server/http/hot-routes"),
    import("@/lib/server/audit/log-access"),
    import("@/lib/server/launch/launch-endpoint"),
    import("@/lib/server/oauth/handle-token-request"),
    import("@/lib/server/oneroster/handle-oneroster-token-request"),
    import("@/lib/server/oauth/user-info-http"),
    import("@/app/manager/v1/data/[orgId]/route"),
    import("@/app/manager/v1/summary/[orgId]/route"),
    import("@/app/ims/oneroster/rostering/v1p2/[[...path]]/route"),
    import("@/lib/server/oauth/authorization-http"),
    import("@/lib/server/lti13/authorize-http"),
    import("@/lib/server/cards/respond-card-sign-in"),
    import("@/lib/server/auth/sign-in-page-key"),
    import("@/lib/server/auth/choose-profile-endpoint"),
  ]);
  registerShutdownTask(flushAccessLogs);
  await registerWebhookMetrics();
  await startWebhooks(registerShutdownTask);
  registerHotRoutes([
    // Plain endpoints: the same functions the route files adapt to Next (docs/decisions/033).
    { method: "POST", path: "/lti/v1/oauth2/authorize", endpoint: handleTokenRequest },
    // A partner application's sign-in, once per student every morning (issue #45).
    { method: "GET", path: "/lti/v1/oauth2/authorize", endpoint: authorize.authorizationGetEndpoint("authorize") },
    { method: "GET", path: "/oauth/continuar", endpoint: authorize.authorizationGetEndpoint("continue") },
    { method: "POST", path: "/ims/oneroster/token", endpoint: handleOneRosterTokenRequest },
    { method: "GET", path: "/users/v1/users/info", endpoint: userInfo.userInfoGet },
    { method: "POST", path: "/users/v1/users/info", endpoint: userInfo.userInfoPost },
    { method: "OPTIONS", path: "/users/v1/users/info", endpoint: userInfo.userInfoOptions },
    { method: "GET", path: /^\/launch\/(?<placementId>[^/]+)$/, endpoint: launchPage },
    // An LTI 1.3 tool's authentication request, right after its launch (issue #45).
    { method: "GET", path: "/lti13/authorize", endpoint: lti13Authorize.lti13AuthorizeGet },
    { method: "POST", path: "/lti13/authorize", endpoint: lti13Authorize.lti13AuthorizePost },
    // A teacher's choice of profile after signing in, at the bell (issue #45).
    { method: "POST", path: "/perfil/escolher", endpoint: chooseProfile.chooseProfileEndpoint },
    // A card's QR code, at the bell (issue #45); /cracha/recusado is the refusal's page, Next's.
    { method: "GET", path: /^\/cracha\/(?!recusado$)(?<token>[^/]+)$/, endpoint: respondCardSignIn },
    // A partner's sync: pages, and whole feeds streamed through the bridge (issue #24).
    { method: "GET", path: /^\/manager\/v1\/data\/(?<orgId>[^/]+)$/, handler: (request, params) => data.GET(request, { params: Promise.resolve({ orgId: params.orgId! }) }) },
    { method: "GET", path: /^\/manager\/v1\/summary\/(?<orgId>[^/]+)$/, handler: (request, params) => summary.GET(request, { params: Promise.resolve({ orgId: params.orgId! }) }) },
    // A OneRoster partner's sync (issue #43): every read of the Rostering service.
    { method: "GET", path: /^\/ims\/oneroster\/rostering\/v1p2(?:\/.*)?$/, handler: (request) => rostering.GET(request) },
  ]);
  // The sign-in page, the same for every visitor without a session: kept per URL and providers (docs/decisions/044).
  registerKeptPages([{ path: "/login", key: signInPageKey }]);
}

/** The webhook gauges' numbers, read when Prometheus scrapes (lib/server/metrics/registry.mjs). */
async function registerWebhookMetrics(): Promise<void> {
  const [{ registerWebhookBacklogSource }, { readWebhookBacklog }] = await Promise.all([import("@/lib/server/metrics/registry.mjs"), import("@/lib/server/webhooks/read-webhook-backlog")]);
  registerWebhookBacklogSource(readWebhookBacklog);
}

/** The webhook worker of this process, unless HUB_WEBHOOK_WORKER=0; SIGTERM lets its batches in flight finish. */
async function startWebhooks(onShutdown: (task: () => Promise<void>) => void): Promise<void> {
  const [{ env }, { startWebhookWorker }] = await Promise.all([import("@/lib/env"), import("@/lib/server/webhooks/run-webhook-worker")]);
  if (env().HUB_WEBHOOK_WORKER === "0") return;
  const worker = startWebhookWorker({ disableAfterMs: env().HUB_WEBHOOK_DISABLE_AFTER_SECONDS * 1000 });
  onShutdown(() => worker.stop());
}
