import { describe, expect, it } from "vitest";
import { addressInNetworks, parseCardNetworks } from "./networks";

describe("parseCardNetworks", () => {
  it("normalises ranges and reads a bare address as one host", () => {
    expect(parseCardNetworks("10.0.0.7/8\n192.168.1.20, 2001:db8::1/32")).toEqual({ ok: true, networks: ["10.0.0.0/8", "192.168.1.20/32", "2001:db8::/32"] });
  });
  it("accepts an empty list (any network)", () => {
    expect(parseCardNetworks("  \n ")).toEqual({ ok: true, networks: [] });
  });
  it("names the first item that is not a range", () => {
    const result = parseCardNetworks("10.0.0.0/8 escola.example 10.0.0.0/33");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain("escola.example");
    expect(parseCardNetworks("10.0.0.0/33").ok).toBe(false);
  });
});

describe("addressInNetworks", () => {
  it("allows every address when there is no list", () => {
    expect(addressInNetworks("203.0.113.9", [])).toBe(true);
    expect(addressInNetworks(null, [])).toBe(true);
  });
  it("matches IPv4, IPv4-mapped IPv6 and IPv6 addresses", () => {
    expect(addressInNetworks("10.1.2.3", ["10.0.0.0/8"])).toBe(true);
    expect(addressInNetworks("::ffff:10.1.2.3", ["10.0.0.0/8"])).toBe(true);
    expect(addressInNetworks("127.0.0.1", ["10.0.0.0/8"])).toBe(false);
    expect(addressInNetworks("2001:db8::5", ["10.0.0.0/8", "2001:db8::/32"])).toBe(true);
    expect(addressInNetworks("::1", ["10.0.0.0/8"])).toBe(false);
  });
  it("refuses an address it cannot read when a list is set", () => {
    expect(addressInNetworks("local", ["10.0.0.0/8"])).toBe(false);
    expect(addressInNetworks(undefined, ["10.0.0.0/8"])).toBe(false);
  });
});
