import { describe, expect, it } from 'vitest';
import { SharedDeadlines } from '../../src/webhooks/deadlines.js';

describe('webhook attempt deadlines', () => {
  it('attempts of a 100 ms window share a signal that fires between the timeout and 100 ms after it', async () => {
    const deadlines = new SharedDeadlines(150);
    const t0 = performance.now();
    const a = deadlines.forAttempt(1_000_000);
    const b = deadlines.forAttempt(1_000_099);
    const c = deadlines.forAttempt(1_000_100);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    // Many attempts listening at once draw no leak warning.
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    for (let i = 0; i < 50; i++) a.addEventListener('abort', () => undefined);
    const fired = await new Promise<number>((resolve) =>
      a.addEventListener('abort', () => resolve(performance.now() - t0)),
    );
    process.off('warning', onWarning);
    expect(fired).toBeGreaterThanOrEqual(150);
    expect(fired).toBeLessThan(1_000);
    expect(a.reason).toBeInstanceOf(DOMException);
    expect((a.reason as DOMException).name).toBe('TimeoutError');
    expect(warnings).toEqual([]);
  });
});
