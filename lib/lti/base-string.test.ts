import { describe, expect, it } from "vitest";
import { collectParameters, normalizeBaseUrl, normalizeParameters, signatureBaseString } from "./base-string";

describe("normalizeBaseUrl (RFC 5849 §3.4.1.2)", () => {
  it("lowercases scheme and host and drops :443 for https", () => {
    expect(normalizeBaseUrl("HTTPS://Tool.EXAMPLE.com:443/l")).toBe("https://tool.example.com/l");
  });

  it("keeps a non-default port", () => {
    expect(normalizeBaseUrl("https://tool.example.com:8443/l")).toBe("https://tool.example.com:8443/l");
  });

  it("drops :80 for http", () => {
    expect(normalizeBaseUrl("http://x.com:80/")).toBe("http://x.com/");
  });

  it("keeps :80 for https and :443 for http, which are not their defaults", () => {
    expect(normalizeBaseUrl("https://x.com:80/a")).toBe("https://x.com:80/a");
    expect(normalizeBaseUrl("http://x.com:443/a")).toBe("http://x.com:443/a");
  });

  it("reproduces the RFC example http://EXAMPLE.COM:80/r%20v/X?id=123", () => {
    expect(normalizeBaseUrl("http://EXAMPLE.COM:80/r%20v/X?id=123")).toBe("http://example.com/r%20v/X");
  });

  it("reproduces the RFC example https://www.example.net:8080/?q=1", () => {
    expect(normalizeBaseUrl("https://www.example.net:8080/?q=1")).toBe("https://www.example.net:8080/");
  });

  it("uses / for an empty path", () => {
    expect(normalizeBaseUrl("https://tool.example.com")).toBe("https://tool.example.com/");
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
    const collected = collectParameters("http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b", [
      ["c2", ""],
      ["a3", "2 q"],
    ]);
    expect(collected).toEqual([
      ["b5", "=%3D"],
      ["a3", "a"],
      ["c@", ""],
      ["a2", "r b"],
      ["c2", ""],
      ["a3", "2 q"],
    ]);
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
    const normalized = normalizeParameters([
      ["b5", "=%3D"],
      ["a3", "a"],
      ["c@", ""],
      ["a2", "r b"],
      ["c2", ""],
      ["a3", "2 q"],
    ]);
    expect(normalized).toBe("a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=");
  });

  it("returns an empty string for no parameters", () => {
    expect(normalizeParameters([])).toBe("");
  });
});

describe("signatureBaseString", () => {
  it("reproduces the RFC 5849 §3.4.1.1 example base string", () => {
    const base = signatureBaseString("POST", "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b", [
      ["oauth_consumer_key", "9djdj82h48djs9d2"],
      ["oauth_token", "kkk9d7dh3k39sjv7"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131201"],
      ["oauth_nonce", "7d8f3e4a"],
      ["oauth_signature", "bYT5CMsGcbgUdFHObYMEfcx6bsw="],
      ["c2", ""],
      ["a3", "2 q"],
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
