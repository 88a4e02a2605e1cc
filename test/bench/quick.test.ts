import { describe, expect, it } from 'vitest';
import { runBench } from '../../bench/harness.js';
import { renderResults } from '../../bench/report.js';

/**
 * Runs the quick benchmark harness so that it cannot rot. No timing is asserted: only that every
 * scenario produced its figures and that no task or webhook delivery was lost or doubled.
 */
describe('benchmark harness (quick mode)', () => {
  it('produces every figure and loses nothing', async () => {
    const report = await runBench({ quick: true, command: 'vitest test/bench/quick.test.ts' });
    const scenarios = report.figures.map((f) => f.scenario);
    for (const s of [
      'single submit',
      'single submit (bare)',
      'batch submit (500 mixed)',
      'polling (10,000 tasks)',
      'dispatch (1,000 no-op tasks)',
      'dispatch, idle workers',
      'webhooks (500 deliveries)',
      'webhooks, signed (500 deliveries)',
      'parse isolation (1 MB pages, 4 reads in flight)',
      'growth (50,000 tasks): single submit',
      'growth (50,000 tasks): polling',
      'growth (50,000 tasks): memory',
      'growth (50,000 tasks): GET /stats',
      'dispatch (1,000 no-op tasks, PostgreSQL)',
      '1,000 no-op jobs (BullMQ on Redis)',
      '1,000 no-op jobs (pg-boss on PostgreSQL)',
    ]) {
      expect(scenarios).toContain(s);
    }
    for (const f of report.figures) {
      expect(f.runs.length, `${f.scenario} ${f.metric}`).toBeGreaterThan(0);
      expect(Number.isFinite(f.value) && f.value > 0, `${f.scenario} ${f.metric} = ${f.value}`).toBe(true);
      if (f.baseline) expect(f.baseline.value, `${f.scenario} baseline`).toBeGreaterThan(0);
    }
    expect(report.integrity.length).toBeGreaterThanOrEqual(7);
    for (const i of report.integrity) {
      expect({
        scenario: i.scenario,
        observed: i.observed,
        failed: i.failedRequests,
        lost: i.lost,
        duplicates: i.duplicates,
      }).toEqual({
        scenario: i.scenario,
        observed: i.expected,
        failed: 0,
        lost: 0,
        duplicates: 0,
      });
    }
    expect(renderResults(report)).toContain('| single submit | requests/s |');
  }, 150_000);
});
