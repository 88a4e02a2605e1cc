import type { LaunchOptions } from 'playwright-core';

/**
 * Flags for the system Chromium (Debian's `chromium` package; never a downloaded browser).
 * The `--disable-*` flags stop the browser's own background traffic (updates, sync, field trials),
 * which would leave through the exit address and look unlike a page view; QUIC is off so every
 * request goes over TCP, through the context's proxy, and WebRTC may not send UDP around the proxy
 * either (the private-address guard sees proxied connections only). `--disable-dev-shm-usage`:
 * containers often have a 64 MB /dev/shm, too small for renderers. The sandbox is not a flag here:
 * chromium-sandbox.ts decides it (Playwright adds `--no-sandbox` when it is off).
 */
const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]);

/**
 * Launch options for one browser per worker process; Playwright gives it a fresh temporary profile.
 * `sandboxed` as planned by chromium-sandbox.ts (with its `executablePath`, a namespace wrapper as root).
 */
export function chromiumLaunchOptions(executablePath: string, sandboxed = false): LaunchOptions {
  return {
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS],
    chromiumSandbox: sandboxed,
    // The worker drains on SIGTERM and closes the pool itself; Playwright killing the browser first
    // would fail the attempts the drain is waiting for. (It still kills it when the process exits.)
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: 30_000,
  };
}
