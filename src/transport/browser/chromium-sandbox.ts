import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** AEQ_CHROMIUM_SANDBOX: `auto` uses the sandbox where the kernel allows it, `on` requires it, `off` never. */
export type SandboxSetting = 'auto' | 'on' | 'off';

/**
 * How Chromium is started (docs/security.md#browser-isolation). Its sandbox confines each renderer
 * (the process that runs a page's scripts) to its own user, PID and network namespaces under a
 * seccomp-bpf filter, so a page that exploits the renderer gets no files, no network and no other
 * process. Chromium builds the sandbox from unprivileged user namespaces (or a setuid helper), and
 * refuses to start sandboxed as root ("Running as root without --no-sandbox is not supported"). As
 * root, the browser is therefore started inside a user namespace of its own in which it is an
 * ordinary user (`unshare --user --map-user=…`): Chromium then builds its sandbox as it does for any
 * user. The browser process itself is still root to the kernel (files it writes belong to root);
 * only the renderers are confined. Where none of this is possible the browser runs unsandboxed and
 * says so.
 */
export interface SandboxPlan {
  sandboxed: boolean;
  /** What Playwright starts: the browser itself, or a wrapper that starts it in a user namespace. */
  executablePath: string;
  /** One sentence for the start-up log. */
  why: string;
}

/** The user the browser is inside its namespace when the service runs as root (any uid but 0 will do). */
const NAMESPACE_UID = 1000;

export function planSandbox(executablePath: string, setting: SandboxSetting): SandboxPlan {
  const unsandboxed = (why: string): SandboxPlan => ({ sandboxed: false, executablePath, why });
  if (setting === 'off') return unsandboxed('AEQ_CHROMIUM_SANDBOX=off');
  const root = process.getuid?.() === 0;
  const probe = root
    ? ['--user', `--map-user=${NAMESPACE_UID}`, `--map-group=${NAMESPACE_UID}`, 'true']
    : ['--user', 'true'];
  const userns = runs('unshare', probe);
  if (!root) {
    if (userns) return { sandboxed: true, executablePath, why: 'unprivileged user namespaces are available' };
    if (setuidHelper(executablePath))
      return { sandboxed: true, executablePath, why: "Chromium's setuid sandbox helper is installed" };
    return unsandboxed('no unprivileged user namespaces and no setuid sandbox helper on this kernel');
  }
  if (!userns)
    return unsandboxed('the service runs as root and this kernel allows no user namespace to start Chromium in');
  return {
    sandboxed: true,
    executablePath: namespaceWrapper(executablePath),
    why: `the service runs as root: Chromium is started as uid ${NAMESPACE_UID} of a user namespace of its own`,
  };
}

/** Whether a sandboxed launch failed because the sandbox could not be set up (AppArmor, seccomp of the host). */
export function isSandboxFailure(message: string): boolean {
  const m = message.toLowerCase();
  return SANDBOX_FAILURES.some((marker) => m.includes(marker));
}

/** What Chromium prints when it cannot build its sandbox (zygote_host_impl_linux.cc, setuid_sandbox_host.cc). */
const SANDBOX_FAILURES = ['no usable sandbox', 'without --no-sandbox', 'sandbox_host', 'zygote'];

function runs(command: string, args: string[]): boolean {
  try {
    return spawnSync(command, args, { stdio: 'ignore', timeout: 5000 }).status === 0;
  } catch {
    return false;
  }
}

/** Debian's chromium-sandbox package: a setuid-root `chrome-sandbox` beside the browser. */
function setuidHelper(executablePath: string): boolean {
  for (const dir of [path.dirname(executablePath), '/usr/lib/chromium']) {
    try {
      const st = fs.statSync(path.join(dir, 'chrome-sandbox'));
      if (st.uid === 0 && (st.mode & 0o4000) !== 0) return true;
    } catch {
      // Not there.
    }
  }
  return false;
}

/**
 * Playwright starts one executable with its arguments, so the namespace is entered by a small script
 * in a private temporary directory. The browser path is quoted for the shell.
 */
function namespaceWrapper(executablePath: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-chromium-'));
  const file = path.join(dir, 'chromium');
  const quoted = `'${executablePath.replace(/'/g, `'\\''`)}'`;
  const map = `--map-user=${NAMESPACE_UID} --map-group=${NAMESPACE_UID}`;
  fs.writeFileSync(file, `#!/bin/sh\nexec unshare --user ${map} -- ${quoted} "$@"\n`, { mode: 0o700 });
  return file;
}
