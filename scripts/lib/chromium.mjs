// Which Chromium the browser tests drive. Playwright cannot download its own browser here, so it
// takes Debian's: `chromium-headless-shell` when it is installed (the headless-only build, which
// Playwright itself uses for headless runs: a third less CPU over the browser suite than the full
// browser), else `chromium`. CHROMIUM_PATH overrides both.
import { existsSync } from "node:fs";

export const chromiumCandidates = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];

/**
 * The path of the browser to drive, or undefined when none is installed.
 * @param {{ CHROMIUM_PATH?: string }} [env]
 * @param {(path: string) => boolean} [exists]
 * @returns {string | undefined}
 */
export function chromiumPath(env = process.env, exists = existsSync) {
  if (env.CHROMIUM_PATH) return exists(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return chromiumCandidates.find((candidate) => exists(candidate));
}
