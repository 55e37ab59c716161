import { afterEach, describe, expect, it, vi } from "vitest";
import { signatureBaseString } from "./base-string";
import { hmacSha1Signature } from "./hmac-sha1";
import { signLaunch, type SignLaunchInput } from "./sign-launch";

const input: SignLaunchInput = {
  launchUrl: "https://tool.example.com/launch?course=7&mode=full",
  consumerKey: "hub-key",
  consumerSecret: "s3cr&t",
  params: { lti_message_type: "basic-lti-launch-request", resource_link_id: "placement-1" },
  callbackUrl: "https://hub.example.com/",
  timestamp: 1_700_000_000,
  nonce: "fixed-nonce",
};

function field(fields: Array<[string, string]>, name: string): string | undefined {
  return fields.find(([key]) => key === name)?.[1];
}

afterEach(() => {
  vi.useRealTimers();
});

describe("signLaunch", () => {
  it("adds the OAuth protocol parameters after the LTI params, signature last", () => {
    const { fields } = signLaunch(input);
    expect(fields.map(([name]) => name)).toEqual([
      "lti_message_type",
      "resource_link_id",
      "oauth_consumer_key",
      "oauth_signature_method",
      "oauth_timestamp",
      "oauth_nonce",
      "oauth_version",
      "oauth_callback",
      "oauth_signature",
    ]);
    expect(field(fields, "oauth_consumer_key")).toBe("hub-key");
    expect(field(fields, "oauth_signature_method")).toBe("HMAC-SHA1");
    expect(field(fields, "oauth_timestamp")).toBe("1700000000");
    expect(field(fields, "oauth_nonce")).toBe("fixed-nonce");
    expect(field(fields, "oauth_version")).toBe("1.0");
    expect(field(fields, "oauth_callback")).toBe("https://hub.example.com/");
  });

  it("returns the launch URL unchanged as the action and does not copy its query into fields", () => {
    const { action, fields } = signLaunch(input);
    expect(action).toBe(input.launchUrl);
    expect(field(fields, "course")).toBeUndefined();
    expect(field(fields, "mode")).toBeUndefined();
  });

  it("signs POST, the launch URL's query and every field with the consumer secret", () => {
    const { action, fields } = signLaunch(input);
    const unsigned = fields.filter(([name]) => name !== "oauth_signature");
    const expected = hmacSha1Signature(signatureBaseString("POST", action, unsigned), input.consumerSecret);
    expect(field(fields, "oauth_signature")).toBe(expected);
  });

  it("covers the launch URL's query parameters in the signature", () => {
    const withQuery = signLaunch(input);
    const withoutQuery = signLaunch({ ...input, launchUrl: "https://tool.example.com/launch" });
    expect(field(withQuery.fields, "oauth_signature")).not.toBe(field(withoutQuery.fields, "oauth_signature"));
  });

  it("generates a url-safe nonce of at least 128 random bits, fresh per launch", () => {
    const { nonce: _ignored, ...noNonce } = input;
    const first = field(signLaunch(noNonce).fields, "oauth_nonce") ?? "";
    const second = field(signLaunch(noNonce).fields, "oauth_nonce") ?? "";
    expect(first).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(first, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(first).not.toBe(second);
  });

  it("uses the current unix time in seconds when no timestamp is given", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2024-05-01T12:00:00.750Z"));
    const { timestamp: _ignored, ...noTimestamp } = input;
    const { fields } = signLaunch(noTimestamp);
    expect(field(fields, "oauth_timestamp")).toBe(String(Date.UTC(2024, 4, 1, 12, 0, 0) / 1000));
  });

  it("refuses a non-integer timestamp", () => {
    expect(() => signLaunch({ ...input, timestamp: 1.5 })).toThrow(RangeError);
  });

  it("refuses oauth_* names in params, which would become duplicate protocol parameters", () => {
    expect(() => signLaunch({ ...input, params: { oauth_nonce: "x" } })).toThrow(/oauth_nonce/);
  });

  it("refuses oauth_* names in the launch URL query", () => {
    expect(() => signLaunch({ ...input, launchUrl: "https://tool.example.com/l?oauth_token=x" })).toThrow(
      /oauth_token/,
    );
  });
});
