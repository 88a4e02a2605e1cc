import type { LaunchOptions } from 'playwright-core';

/**
 * Flags for the system Chromium (Debian's `chromium` package; never a downloaded browser).
 * `--no-sandbox`: the service may run as root in a container, where Chromium's sandbox cannot start.
 * The `--disable-*` flags stop the browser's own background traffic (updates, sync, field trials),
 * which would leave through the exit address and look unlike a page view; QUIC is off so every
 * request goes over TCP, through the context's proxy. `--disable-dev-shm-usage`: containers often
 * have a 64 MB /dev/shm, too small for renderers.
 */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]);

/** Launch options for one browser per worker process; Playwright gives it a fresh temporary profile. */
export function chromiumLaunchOptions(executablePath: string): LaunchOptions {
  return {
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS],
    // The worker drains on SIGTERM and closes the pool itself; Playwright killing the browser first
    // would fail the attempts the drain is waiting for. (It still kills it when the process exits.)
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: 30_000,
  };
}
