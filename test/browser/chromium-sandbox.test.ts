import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/ops/logger.js';
import { BrowserPool } from '../../src/transport/browser/browser-pool.js';
import { planSandbox, type SandboxSetting } from '../../src/transport/browser/chromium-sandbox.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';

/** Processes below `pid`, from each process's PPid in /proc, with the Chromium process type of each. */
function descendants(pid: number): Array<{ pid: number; type: string }> {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = /^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (ppid) parent.set(Number(entry), Number(ppid));
    } catch {
      // The process ended meanwhile.
    }
  }
  const below = (p: number): boolean => {
    for (let q = parent.get(p); q !== undefined && q > 1; q = parent.get(q)) if (q === pid) return true;
    return false;
  };
  const out: Array<{ pid: number; type: string }> = [];
  for (const p of parent.keys()) {
    if (!below(p)) continue;
    try {
      // Chromium rewrites its children's argv as one line: split at spaces too.
      const cmdline = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split(/[\0 ]/);
      out.push({ pid: p, type: cmdline.find((a) => a.startsWith('--type='))?.slice('--type='.length) ?? '' });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** Seccomp mode and namespaces of a process; null when it has ended. */
function confinementOf(pid: number): { seccomp: number; user: string; net: string } | null {
  try {
    const m = /^Seccomp:\s+(\d)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return {
      seccomp: Number(m?.[1] ?? -1),
      user: fs.readlinkSync(`/proc/${pid}/ns/user`),
      net: fs.readlinkSync(`/proc/${pid}/ns/net`),
    };
  } catch {
    return null;
  }
}

/** The pool's one line about the sandbox. */
function sandboxLine(lines: string[]): { msg: string; why?: string } | undefined {
  return lines
    .map((l) => JSON.parse(l) as { msg: string; why?: string })
    .find((l) => l.msg.startsWith('chromium sandbox'));
}

/**
 * Chromium's sandbox (docs/security.md#browser-isolation): where the kernel allows it, every renderer
 * runs under seccomp-bpf in user, PID and network namespaces of its own, also when the service runs
 * as root (the browser is then started in a user namespace where it is not root). The start-up log
 * says which mode is used and why; `off` is the control, with renderers unconfined.
 */
describe.skipIf(!chromiumAvailable() || process.platform !== 'linux')('chromium sandbox', () => {
  const pools: BrowserPool[] = [];
  afterEach(async () => {
    for (const p of pools.splice(0)) await p.close();
  });

  /**
   * Opens one page and reports the renderers of the running browser, with their confinement read while the page is
   * still open (a renderer ends with its page; read afterwards, it may be gone).
   */
  async function renderersWith(sandbox: SandboxSetting, lines: string[]) {
    const log = createLogger('info', {
      write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)),
    });
    const pool = new BrowserPool({ executablePath: CHROMIUM_PATH, maxPages: 1, log, guardPrivate: false, sandbox });
    pools.push(pool);
    return pool.withPage({ exit: { id: 'direct' }, country: 'US' }, new AbortController().signal, async (page) => {
      await page.goto('data:text/html,<p>sandbox probe</p>');
      expect(await page.textContent('p')).toBe('sandbox probe');
      const browserPid = await pool.browserPid();
      if (browserPid === null) throw new Error('no browser process');
      return descendants(browserPid)
        .filter((p) => p.type === 'renderer')
        .map((r) => ({ ...r, seen: confinementOf(r.pid) }));
    });
  }

  const plan = planSandbox(CHROMIUM_PATH, 'auto');
  it.runIf(plan.sandboxed)(`auto: renderers are confined (${plan.why})`, async () => {
    const lines: string[] = [];
    const renderers = await renderersWith('auto', lines);
    expect(renderers.length).toBeGreaterThan(0);
    const ours = { user: fs.readlinkSync('/proc/self/ns/user'), net: fs.readlinkSync('/proc/self/ns/net') };
    let checked = 0;
    for (const { seen } of renderers) {
      if (!seen) continue; // a spare renderer that ended meanwhile
      expect(seen.seccomp).toBe(2);
      expect(seen.user).not.toBe(ours.user);
      expect(seen.net).not.toBe(ours.net);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    const said = lines
      .map((l) => JSON.parse(l) as { msg: string; why?: string })
      .find((l) => /chromium sandbox/.test(l.msg));
    expect(said).toMatchObject({ msg: 'chromium sandbox: on', why: plan.why });
  });

  it.skipIf(plan.sandboxed)(
    `auto on a kernel without the means: runs unsandboxed and says why (${plan.why})`,
    async () => {
      const lines: string[] = [];
      await renderersWith('auto', lines);
      expect(sandboxLine(lines)?.msg).toMatch(/^chromium sandbox: off/);
    },
  );

  it('off (the control): renderers run without seccomp, and the log says so', async () => {
    const lines: string[] = [];
    const renderers = await renderersWith('off', lines);
    expect(renderers.length).toBeGreaterThan(0);
    const seen = renderers.map((r) => r.seen).filter((c) => c !== null);
    expect(seen.length).toBeGreaterThan(0);
    for (const c of seen) expect(c.seccomp).toBe(0);
    expect(sandboxLine(lines)).toMatchObject({ why: 'AEQ_CHROMIUM_SANDBOX=off' });
    expect(sandboxLine(lines)?.msg).toMatch(/^chromium sandbox: off/);
  });
});
