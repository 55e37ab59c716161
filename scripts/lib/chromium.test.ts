import { describe, expect, it } from "vitest";
import { chromiumPath } from "./chromium.mjs";

const only = (...present: string[]) => (path: string) => present.includes(path);

describe("chromiumPath: the browser the Playwright tests drive", () => {
  it("prefers Debian's headless shell when it is installed", () => {
    expect(chromiumPath({}, only("/usr/bin/chromium", "/usr/bin/chromium-headless-shell"))).toBe("/usr/bin/chromium-headless-shell");
  });

  it("falls back to the full Chromium", () => {
    expect(chromiumPath({}, only("/usr/bin/chromium"))).toBe("/usr/bin/chromium");
  });

  it("takes CHROMIUM_PATH over both, and reports it missing rather than falling back", () => {
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chrome/chrome" }, only("/opt/chrome/chrome", "/usr/bin/chromium"))).toBe("/opt/chrome/chrome");
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chrome/chrome" }, only("/usr/bin/chromium"))).toBeUndefined();
  });

  it("is undefined when no browser is installed", () => {
    expect(chromiumPath({}, only())).toBeUndefined();
  });
});
