import { describe, expect, it } from "vitest";
import { classifyAddress } from "./classify-address";

describe("classifyAddress", () => {
  it.each([
    ["93.184.216.34", "public"],
    ["8.8.8.8", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "reserved"],
    ["224.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.10", "reserved"],
  ])("IPv4 %s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ["2606:4700:4700::1111", "public"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "reserved"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fd12:3456::1", "private"],
    ["fc00::1", "private"],
    ["ff02::1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["2001:0:4136:e378::1", "reserved"],
  ])("IPv6 %s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:a00:1", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:93.184.216.34", "public"],
    ["0:0:0:0:0:ffff:c0a8:101", "private"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::5db8:d822", "public"],
    ["2002:c0a8:0101::1", "private"],
    ["2002:5db8:d822::1", "public"],
  ])("IPv6 embedding IPv4 %s is classified by the IPv4 address (%s)", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("treats what is not an address as reserved", () => {
    expect(classifyAddress("localhost")).toBe("reserved");
    expect(classifyAddress("1.2.3")).toBe("reserved");
    expect(classifyAddress("")).toBe("reserved");
  });
});
