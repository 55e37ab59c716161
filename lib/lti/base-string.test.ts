import { describe, expect, it } from "vitest";
import { collectParameters, normalizeBaseUrl, normalizeParameters, signatureBaseString } from "./base-string";

// RFC 5849 §3.4.1.3's example request: its URL, its form body, and the table of the parameters
// both hold (§3.4.1.3.1), which §3.4.1.3.2 then normalizes.
const RFC_URL = "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b";
const RFC_BODY: [string, string][] = [
  ["c2", ""],
  ["a3", "2 q"],
];
const RFC_PARAMETERS: [string, string][] = [
  ["b5", "=%3D"],
  ["a3", "a"],
  ["c@", ""],
  ["a2", "r b"],
  ["c2", ""],
  ["a3", "2 q"],
];

describe("normalizeBaseUrl (RFC 5849 §3.4.1.2)", () => {
  it.each([
    ["lowercases scheme and host and drops :443 for https", "HTTPS://Tool.EXAMPLE.com:443/l", "https://tool.example.com/l"],
    ["keeps a non-default port", "https://tool.example.com:8443/l", "https://tool.example.com:8443/l"],
    ["drops :80 for http", "http://x.com:80/", "http://x.com/"],
    ["keeps :80 for https, which is not its default", "https://x.com:80/a", "https://x.com:80/a"],
    ["keeps :443 for http, which is not its default", "http://x.com:443/a", "http://x.com:443/a"],
    ["reproduces the RFC example http://EXAMPLE.COM:80/r%20v/X?id=123", "http://EXAMPLE.COM:80/r%20v/X?id=123", "http://example.com/r%20v/X"],
    ["reproduces the RFC example https://www.example.net:8080/?q=1", "https://www.example.net:8080/?q=1", "https://www.example.net:8080/"],
    ["uses / for an empty path", "https://tool.example.com", "https://tool.example.com/"],
  ])("%s", (_name, url, expected) => {
    expect(normalizeBaseUrl(url)).toBe(expected);
  });

  it("keeps path case and escapes, and drops query, fragment and userinfo", () => {
    expect(normalizeBaseUrl("https://user:pw@tool.example.com/Launch/A%2Fb?x=1#frag")).toBe(
      "https://tool.example.com/Launch/A%2Fb",
    );
  });

  it("refuses a non-http(s) URL", () => {
    expect(() => normalizeBaseUrl("ftp://tool.example.com/l")).toThrow(TypeError);
  });
});

describe("collectParameters (RFC 5849 §3.4.1.3.1)", () => {
  it("decodes the RFC example query and body into the published table", () => {
    const collected = collectParameters(RFC_URL, RFC_BODY);
    expect(collected).toEqual(RFC_PARAMETERS);
  });

  it("decodes + in the query as a space", () => {
    expect(collectParameters("https://t.example/l?q=2+q", [])).toEqual([["q", "2 q"]]);
  });

  it("leaves out oauth_signature from both query and form fields", () => {
    const collected = collectParameters("https://t.example/l?oauth_signature=x&a=1", [
      ["oauth_signature", "y"],
      ["b", "2"],
    ]);
    expect(collected).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });
});

describe("normalizeParameters (RFC 5849 §3.4.1.3.2)", () => {
  it("sorts by encoded name, then by encoded value, and joins with & and =", () => {
    const normalized = normalizeParameters(RFC_PARAMETERS);
    expect(normalized).toBe("a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=");
  });

  it("returns an empty string for no parameters", () => {
    expect(normalizeParameters([])).toBe("");
  });
});

describe("signatureBaseString", () => {
  it("reproduces the RFC 5849 §3.4.1.1 example base string", () => {
    const base = signatureBaseString("POST", RFC_URL, [
      ["oauth_consumer_key", "9djdj82h48djs9d2"],
      ["oauth_token", "kkk9d7dh3k39sjv7"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131201"],
      ["oauth_nonce", "7d8f3e4a"],
      ["oauth_signature", "bYT5CMsGcbgUdFHObYMEfcx6bsw="],
      ...RFC_BODY,
    ]);
    expect(base).toBe(
      "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q" +
        "%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_" +
        "key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m" +
        "ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk" +
        "9d7dh3k39sjv7",
    );
  });

  it("reproduces the OAuth Core 1.0 Appendix A.5.1 base string", () => {
    const base = signatureBaseString("GET", "http://photos.example.net/photos?file=vacation.jpg&size=original", [
      ["oauth_consumer_key", "dpf43f3p2l4k3l03"],
      ["oauth_token", "nnch734d00sl2jdk"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "1191242096"],
      ["oauth_nonce", "kllo9940pd9333jh"],
      ["oauth_version", "1.0"],
    ]);
    expect(base).toBe(
      "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03" +
        "%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096" +
        "%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal",
    );
  });

  it("uppercases the method", () => {
    expect(signatureBaseString("post", "https://t.example/l", [])).toBe("POST&https%3A%2F%2Ft.example%2Fl&");
  });
});
