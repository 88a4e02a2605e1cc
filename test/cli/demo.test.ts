import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/service.js';

/**
 * `aeq demo` as a new user runs it: the walk through every engine ends as expected; `aeq demo --monitor` runs a
 * sandbox monitor once a day over past days and prints four engines apart and the change its prompts inject.
 */
describe('aeq demo', () => {
  it('walks through every engine, directive and analysis, every step as expected', async () => {
    const out = await runCli(['demo'], { cwd: tempDir('aeq-demo-') });
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout).toContain('demo finished: every step ended as expected');
    expect(out.stdout).toMatch(/webhooks received: (\d+)\/\1/);
  }, 120_000);

  it('--monitor shows the engines apart and the injected change, day by day', async () => {
    const out = await runCli(['demo', '--monitor', '--days', '6', '--start', '2026-11-01'], {
      cwd: tempDir('aeq-demo-'),
    });
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout).toContain('sandbox:shift=hoka:+60@2026-11-04:ASSISTANT_A');
    for (let d = 1; d <= 6; d++) expect(out.stdout).toContain(`[${d}/6] 2026-11-0${d} run completed (24 answers)`);
    const lines = out.stdout.split('\n');
    const header = lines.findIndex((l) => /^day\s+CHATBOT_A\s+ANSWER_ENGINE_A\s+ASSISTANT_A\s+AIMODE$/.test(l));
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(header + 1, header + 7).map((l) => l.trim().split(/\s+/));
    expect(rows.map((r) => r[0])).toEqual(['01', '02', '03', '04', '05', '06'].map((d) => `2026-11-${d}`));
    // Each engine's column, in percent: four different lines.
    const columns = [1, 2, 3, 4].map((i) => rows.map((r) => Number.parseInt(r[i] ?? '', 10)));
    for (const c of columns) for (const v of c) expect(v).toBeGreaterThanOrEqual(0);
    expect(new Set(columns.map((c) => c.join('|'))).size).toBe(4);
    // ASSISTANT_A before and from the shift's day.
    const summary = lines.find((l) => l.startsWith('ASSISTANT_A ')) ?? '';
    const [before, from] = (summary.match(/\d+%/g) ?? []).map((p) => Number.parseInt(p, 10));
    expect((from ?? 0) - (before ?? 0)).toBeGreaterThanOrEqual(40);
  }, 120_000);

  it('--monitor refuses days out of range and a start that is not a date', async () => {
    for (const [args, message] of [
      [['--days', '1'], '--days must be 2 to 60'],
      [['--days', 'many'], '--days must be 2 to 60'],
      [['--start', 'yesterday'], '--start must be a date YYYY-MM-DD'],
    ] as const) {
      const out = await runCli(['demo', '--monitor', ...args], { cwd: tempDir('aeq-demo-') });
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(message);
    }
  });
});
