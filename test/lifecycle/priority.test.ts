import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, movableClock, startService, submit, tempDir, waitFor, type RunningService } from '../helpers/service.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

const AGING_MS = 60_000;

describe('priority ordering with one slot (concurrency 1)', () => {
  const clock = movableClock();
  let svc: RunningService;
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService(
      {
        AEQ_CONFIG: fastConfig(tempDir(), {
          engines: { ANSWER_ENGINE_A: { concurrency: 1 } },
          // Leases far longer than the clock jumps below, so moving the clock never looks like a dead worker.
          scheduler: { agingMs: AGING_MS, leaseMs: 3_600_000, heartbeatMs: 1000 },
        }),
      },
      { now: clock.now },
    );
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  /** Submits a task that reports its completion to the receiver under `label`. */
  const task = (label: string, priority: number, delayMs: number) =>
    submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `${label} sandbox:delay=${delayMs}` },
      priority,
      idempotencyKey: `${label}-${Date.now()}`,
      webhook: { url: `${hooks.url}/${label}` },
    });

  const order = (labels: string[]) =>
    hooks.received.map((r) => r.path.slice(1)).filter((p) => labels.includes(p));

  it('a high-priority task submitted last starts before older low-priority ones', async () => {
    const blocker = await task('blocker', 1, 600);
    await waitFor(svc, blocker, (v) => v.task.status === 'PROCESSING');
    const lows: string[] = [];
    for (let i = 0; i < 5; i++) {
      await task(`low${i}`, 1, 60);
      lows.push(`low${i}`);
    }
    await task('high', 10, 60);
    const labels = ['blocker', 'high', ...lows];
    await hooks.waitUntil(() => order(labels).length === labels.length, 20_000, 'all deliveries');
    const seen = order(labels);
    expect(seen[0]).toBe('blocker');
    expect(seen[1]).toBe('high');
    expect(seen.slice(2).sort()).toEqual([...lows].sort());
  });

  it('age raises effective priority: a low task that waited long enough goes before a new high one', async () => {
    const blocker = await task('blocker2', 1, 600);
    await waitFor(svc, blocker, (v) => v.task.status === 'PROCESSING');
    await task('old-low', 1, 60);
    // Ten priority levels' worth of waiting, and a bit more.
    clock.advance(10 * AGING_MS + 5_000);
    await task('new-high', 10, 60);
    const labels = ['blocker2', 'old-low', 'new-high'];
    await hooks.waitUntil(() => order(labels).length === 3, 20_000, 'all deliveries');
    expect(order(labels)).toEqual(['blocker2', 'old-low', 'new-high']);
  });

  it('with equal priority, older tasks go first', async () => {
    const blocker = await task('blocker3', 1, 600);
    await waitFor(svc, blocker, (v) => v.task.status === 'PROCESSING');
    const labels = ['blocker3'];
    for (let i = 0; i < 4; i++) {
      await task(`same${i}`, 5, 60);
      labels.push(`same${i}`);
      // Distinct creation times (millisecond resolution).
      clock.advance(10);
    }
    await hooks.waitUntil(() => order(labels).length === labels.length, 20_000, 'all deliveries');
    expect(order(labels)).toEqual(labels);
  });
});
