import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { perTask, startCpuMeter } from '../../bench/compare/cpu-meter.js';

const PG_URL = process.env.AEQ_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function spin(ms: number): void {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  expect(x).toBeGreaterThan(0);
}

describe("the comparison's CPU meter", () => {
  it("counts this process's busy time in its own part and in the machine's", () => {
    const since = startCpuMeter();
    spin(200);
    const c = since();
    // 200 ms of one busy thread: this process spent about that, and the machine at least most of it (its clock ticks
    // are 10 ms).
    expect(c.node).toBeGreaterThan(150_000);
    expect(c.node).toBeLessThan(2_000_000);
    expect(c.machine).toBeGreaterThan(120_000);
    expect(perTask(c, 1000).node).toBeCloseTo(c.node / 1000);
  });

  it("counts PostgreSQL's work in its part, not in this process's", async (ctx) => {
    const client = new pg.Client({ connectionString: PG_URL });
    try {
      await client.connect();
    } catch {
      ctx.skip(); // no PostgreSQL here: the suite's PostgreSQL project is skipped with its reason too
      return;
    }
    try {
      const since = startCpuMeter();
      // About half a second of the server's CPU, while this process only waits for the answer.
      await client.query('select count(*) from generate_series(1, 6000000)');
      const c = since();
      expect(c.postgres).toBeGreaterThan(100_000);
      expect(c.node).toBeLessThan(c.postgres);
    } finally {
      await client.end();
    }
  });
});
