import fs from 'node:fs';

/** The system Chromium the browser transport drives (Debian's `chromium`; CI installs it). */
export const CHROMIUM_PATH = process.env.AEQ_CHROMIUM_PATH || '/usr/bin/chromium';

/** True when the browser tests can run; otherwise says why, once per file, so a skip is never silent. */
export function chromiumAvailable(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  console.warn(
    `\n[aeq] browser tests SKIPPED: no Chromium at ${CHROMIUM_PATH}. ` +
      `Install Debian's "chromium" package or set AEQ_CHROMIUM_PATH.\n`,
  );
  return false;
}
