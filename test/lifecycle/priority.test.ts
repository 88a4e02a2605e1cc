import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fastConfig,
  movableClock,
  startService,
  submit,
  tempDir,
  workDue,
  type RunningService,
} from '../helpers/service.js';

const AGING_MS = 60_000;
const INTERNAL_TOKEN = 'internal-test-token';

/**
 * Priority among tasks waiting for a slot. The engine is paused while the queue is built (through
 * the operator route), then resumed with one slot (concurrency 1): the order in which the tasks
 * then run shows up as the order of their finish times.
 */
describe('priority ordering with one slot (concurrency 1)', () => {
  const clock = movableClock();
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(
      {
        AEQ_INTERNAL_TOKEN: INTERNAL_TOKEN,
        AEQ_CONFIG: fastConfig(tempDir(), {
          engines: { ANSWER_ENGINE_A: { concurrency: 1 } },
          // Leases far longer than the clock jumps below, so moving the clock never looks like a dead worker.
          scheduler: { agingMs: AGING_MS, leaseMs: 3_600_000, heartbeatMs: 1000 },
        }),
      },
      { clock },
    );
  });
  afterAll(() => svc.stop());

  const engine = async (op: 'pause' | 'resume') => {
    const r = await svc.call('POST', `/internal/engines/ANSWER_ENGINE_A/${op}`, undefined, {
      authorization: `Bearer ${INTERNAL_TOKEN}`,
    });
    expect(r.status).toBe(200);
  };

  const ids = new Map<string, string>();

  /** Submits a task known by `label`. */
  const task = async (label: string, priority: number) => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `${label} sandbox:delay=30` },
      priority,
      idempotencyKey: `${label}-${Date.now()}`,
    });
    ids.set(label, id);
  };

  /**
   * Resumes the engine and returns the labels in the order their tasks finished. With one slot each
   * task starts only after the previous one finished, and each takes at least the sandbox delay, so
   * finish times are strictly ordered. The worker is stepped until it has nothing left to run.
   */
  const runAll = async (labels: string[]) => {
    await engine('resume');
    await workDue(svc);
    const tasks = await Promise.all(
      labels.map(async (l) => [l, await svc.app.store.tasks.get({ id: ids.get(l) ?? '', notBefore: 0 })] as const),
    );
    for (const [l, t] of tasks) expect(t?.status, l).toBe('COMPLETED');
    const finished = tasks.map(([l, t]) => [l, t?.finishedAt ?? NaN] as const);
    return [...finished].sort((a, b) => a[1] - b[1]).map(([l]) => l);
  };

  it('a high-priority task submitted last runs before older low-priority ones', async () => {
    await engine('pause');
    const lows: string[] = [];
    for (let i = 0; i < 5; i++) {
      await task(`low${i}`, 1);
      lows.push(`low${i}`);
      clock.advance(10);
    }
    await task('high', 10);
    const seen = await runAll(['high', ...lows]);
    expect(seen).toEqual(['high', ...lows]);
  });

  it('age raises effective priority: a low task that waited long enough goes before a new high one', async () => {
    await engine('pause');
    await task('old-low', 1);
    // Ten priority levels' worth of waiting, and a bit more.
    clock.advance(10 * AGING_MS + 5_000);
    await task('new-high', 10);
    expect(await runAll(['old-low', 'new-high'])).toEqual(['old-low', 'new-high']);
  });

  it('a task that waited less than that still yields to a higher priority', async () => {
    await engine('pause');
    await task('older-low', 1);
    clock.advance(5 * AGING_MS);
    await task('newer-high', 10);
    expect(await runAll(['older-low', 'newer-high'])).toEqual(['newer-high', 'older-low']);
  });

  it('with equal priority, older tasks go first', async () => {
    await engine('pause');
    const labels: string[] = [];
    for (let i = 0; i < 4; i++) {
      await task(`same${i}`, 5);
      labels.push(`same${i}`);
      clock.advance(10);
    }
    expect(await runAll(labels)).toEqual(labels);
  });
});
