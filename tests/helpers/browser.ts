import fs from "node:fs";

/** Debian's Chromium, the browser the browser tests prefer (no download needed). */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/**
 * The Chromium the Playwright configs launch: CHROMIUM_PATH, else Debian's where it is installed, else undefined, which
 * makes Playwright use the browser it manages (`npx playwright install chromium`; `npm test` installs it when needed).
 */
export function chromiumExecutable(
  env: Record<string, string | undefined> = process.env,
  exists: (file: string) => boolean = fs.existsSync,
): string | undefined {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return exists(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}
