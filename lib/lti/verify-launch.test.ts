import { describe, expect, it, vi } from "vitest";
import { signLaunch } from "./sign-launch";
import { LAUNCH_RULES, verifyLaunch, type LaunchRequest, type VerifyDeps } from "./verify-launch";

const NOW = 1_700_000_000;
const KEY = "hub-key";
const SECRET = "tool-shared-secret";
const LAUNCH_URL = "https://tool.example.com/launch?course=7&mode=full";

const LTI_PARAMS: Record<string, string> = {
  lti_message_type: "basic-lti-launch-request",
  lti_version: "LTI-1p0",
  resource_link_id: "placement-1",
  user_id: "profile-uuid",
  roles: "urn:lti:role:ims/lis/Learner",
};

interface LaunchOptions {
  launchUrl?: string;
  secret?: string;
  params?: Record<string, string>;
  timestamp?: number;
  nonce?: string;
}

/** A launch as the hub would produce it, delivered to the URL it was signed for. */
function launch(options: LaunchOptions = {}): LaunchRequest {
  const signed = signLaunch({
    launchUrl: options.launchUrl ?? LAUNCH_URL,
    consumerKey: KEY,
    consumerSecret: options.secret ?? SECRET,
    params: options.params ?? LTI_PARAMS,
    callbackUrl: "https://hub.example.com/",
    timestamp: options.timestamp ?? NOW,
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  });
  return { method: "POST", url: signed.action, fields: signed.fields };
}

/** In-test stand-in for the PostgreSQL nonce table: an atomic "insert if absent". */
function fakeDeps(overrides: Partial<VerifyDeps> = {}): VerifyDeps & { seen: Set<string> } {
  const seen = new Set<string>();
  return {
    seen,
    now: () => NOW,
    lookupSecret: async (consumerKey) => (consumerKey === KEY ? SECRET : null),
    rememberNonce: async (consumerKey, nonce) => {
      const id = `${consumerKey}\u0000${nonce}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    },
    ...overrides,
  };
}

function withField(request: LaunchRequest, name: string, value: string): LaunchRequest {
  return { ...request, fields: request.fields.map(([key, old]) => [key, key === name ? value : old]) };
}

function withoutField(request: LaunchRequest, name: string): LaunchRequest {
  return { ...request, fields: request.fields.filter(([key]) => key !== name) };
}

async function expectFailure(request: LaunchRequest, rule: string, deps: VerifyDeps = fakeDeps()): Promise<void> {
  const result = await verifyLaunch(request, deps);
  expect(result).toMatchObject({ ok: false, rule });
  if (!result.ok) expect(result.message).not.toBe("");
}

describe("LAUNCH_RULES", () => {
  it("runs cheap checks first, then key, signature, nonce, then the LTI message", () => {
    expect(LAUNCH_RULES.map((rule) => rule.name)).toEqual([
      "methodIsPost",
      "urlIsHttp",
      "oauthParamsUnique",
      "consumerKeyPresent",
      "signatureMethodIsHmacSha1",
      "oauthVersionIs1_0",
      "timestampIsNumeric",
      "timestampWithinWindow",
      "nonceNotEmpty",
      "consumerKeyKnown",
      "signatureMatches",
      "nonceUnused",
      "ltiMessageTypeIsBasicLaunch",
      "ltiVersionIs1p0",
      "resourceLinkIdPresent",
    ]);
  });
});

describe("verifyLaunch: valid launches", () => {
  it("signLaunch → verifyLaunch round trip, launch URL with its own query, is ok", async () => {
    const result = await verifyLaunch(launch(), fakeDeps());
    expect(result).toEqual({
      ok: true,
      consumerKey: KEY,
      params: { course: "7", mode: "full", ...LTI_PARAMS },
    });
  });

  it("accepts the URL as the server sees it even if the registered one had other host case and a default port", async () => {
    const signed = launch({ launchUrl: "HTTPS://Tool.EXAMPLE.com:443/launch?course=7" });
    const delivered = { ...signed, url: "https://tool.example.com/launch?course=7" };
    expect(await verifyLaunch(delivered, fakeDeps())).toMatchObject({ ok: true });
  });

  it("timestampWithinWindow: exactly 300 s old passes", async () => {
    expect(await verifyLaunch(launch({ timestamp: NOW - 300 }), fakeDeps())).toMatchObject({ ok: true });
  });

  it("timestampWithinWindow: exactly 300 s in the future passes", async () => {
    expect(await verifyLaunch(launch({ timestamp: NOW + 300 }), fakeDeps())).toMatchObject({ ok: true });
  });

  it("timestampWithinWindow: honours a custom windowSeconds", async () => {
    const request = launch({ timestamp: NOW - 60 });
    await expectFailure(request, "timestampWithinWindow", fakeDeps({ windowSeconds: 59 }));
    expect(await verifyLaunch(request, fakeDeps({ windowSeconds: 60 }))).toMatchObject({ ok: true });
  });
});

describe("verifyLaunch: OAuth failures", () => {
  it("methodIsPost: a GET launch", async () => {
    await expectFailure({ ...launch(), method: "GET" }, "methodIsPost");
  });

  it("urlIsHttp: an unparseable request URL", async () => {
    await expectFailure({ ...launch(), url: "/launch" }, "urlIsHttp");
  });

  it("oauthParamsUnique: a repeated oauth_* field", async () => {
    const request = launch();
    await expectFailure({ ...request, fields: [...request.fields, ["oauth_nonce", "other"]] }, "oauthParamsUnique");
  });

  it("oauthParamsUnique: an oauth_* parameter in both the URL query and the body", async () => {
    const request = launch();
    await expectFailure({ ...request, url: `${request.url}&oauth_timestamp=${NOW}` }, "oauthParamsUnique");
  });

  it("consumerKeyPresent: missing consumer key", async () => {
    await expectFailure(withoutField(launch(), "oauth_consumer_key"), "consumerKeyPresent");
  });

  it("signatureMethodIsHmacSha1: oauth_signature_method is not HMAC-SHA1", async () => {
    await expectFailure(withField(launch(), "oauth_signature_method", "PLAINTEXT"), "signatureMethodIsHmacSha1");
  });

  it("oauthVersionIs1_0: oauth_version is not 1.0", async () => {
    await expectFailure(withField(launch(), "oauth_version", "2.0"), "oauthVersionIs1_0");
  });

  it.each(["soon", "-5", "1e9", "1700000000.5", ""])("timestampIsNumeric: non-numeric timestamp %j", async (value) => {
    await expectFailure(withField(launch(), "oauth_timestamp", value), "timestampIsNumeric");
  });

  it("timestampWithinWindow: timestamp 301 s old", async () => {
    await expectFailure(launch({ timestamp: NOW - 301 }), "timestampWithinWindow");
  });

  it("timestampWithinWindow: timestamp 301 s in the future", async () => {
    await expectFailure(launch({ timestamp: NOW + 301 }), "timestampWithinWindow");
  });

  it("nonceNotEmpty: empty nonce", async () => {
    await expectFailure(launch({ nonce: "" }), "nonceNotEmpty");
  });

  it("consumerKeyKnown: unknown consumer key", async () => {
    await expectFailure(launch(), "consumerKeyKnown", fakeDeps({ lookupSecret: async () => null }));
  });

  it("signatureMatches: wrong secret", async () => {
    await expectFailure(launch({ secret: "not-the-secret" }), "signatureMatches");
  });

  it("signatureMatches: one tampered parameter", async () => {
    await expectFailure(withField(launch(), "roles", "urn:lti:role:ims/lis/Administrator"), "signatureMatches");
  });

  it("signatureMatches: a launch-URL query parameter left out of the signature", async () => {
    const signedWithout = launch({ launchUrl: "https://tool.example.com/launch" });
    await expectFailure({ ...signedWithout, url: "https://tool.example.com/launch?course=7" }, "signatureMatches");
  });

  it("signatureMatches: missing signature", async () => {
    await expectFailure(withoutField(launch(), "oauth_signature"), "signatureMatches");
  });

  it("signatureMatches: a signature of another length fails instead of throwing", async () => {
    await expectFailure(withField(launch(), "oauth_signature", "short"), "signatureMatches");
  });

  it("nonceUnused: replayed nonce (second verify of the same fields)", async () => {
    const deps = fakeDeps();
    const request = launch();
    expect(await verifyLaunch(request, deps)).toMatchObject({ ok: true });
    await expectFailure(request, "nonceUnused", deps);
  });

  it("nonceUnused: a bad signature does not consume the nonce", async () => {
    const deps = fakeDeps();
    const rememberNonce = vi.fn(deps.rememberNonce);
    const spied = { ...deps, rememberNonce };
    const genuine = launch();
    await expectFailure(withField(genuine, "user_id", "someone-else"), "signatureMatches", spied);
    expect(rememberNonce).not.toHaveBeenCalled();
    expect(await verifyLaunch(genuine, spied)).toMatchObject({ ok: true });
  });

  it("nonceUnused: stores the nonce under the consumer key with its timestamp", async () => {
    const rememberNonce = vi.fn(async () => true);
    await verifyLaunch(launch({ nonce: "n-1" }), fakeDeps({ rememberNonce }));
    expect(rememberNonce).toHaveBeenCalledWith(KEY, "n-1", NOW);
  });
});

describe("verifyLaunch: LTI message failures", () => {
  it("ltiMessageTypeIsBasicLaunch: wrong lti_message_type", async () => {
    const params = { ...LTI_PARAMS, lti_message_type: "ContentItemSelectionRequest" };
    await expectFailure(launch({ params }), "ltiMessageTypeIsBasicLaunch");
  });

  it("ltiVersionIs1p0: lti_version is not LTI-1p0", async () => {
    await expectFailure(launch({ params: { ...LTI_PARAMS, lti_version: "LTI-1p3" } }), "ltiVersionIs1p0");
  });

  it("resourceLinkIdPresent: missing resource_link_id", async () => {
    const { resource_link_id: _removed, ...params } = LTI_PARAMS;
    await expectFailure(launch({ params }), "resourceLinkIdPresent");
  });
});
