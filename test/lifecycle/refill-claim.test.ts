import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/adapters.js';
import type { ClaimRequest } from '../../src/store/ports.js';
import { gatedAdapter } from '../helpers/gated-adapter.js';
import { fastConfig, startService, submit, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

const SLOTS = 10;

/**
 * The claim that refills freed slots (src/queue/worker.ts): attempts that end in one turn free their slots together,
 * and one claim at the end of the turn takes them all, rather than a claim for the first slot freed and another for
 * the rest. The engine's attempts here all wait for one gate, so they end together when it opens; the poll is off,
 * so every claim seen is a wake-up's or a refill's.
 */
describe('the refill claim', () => {
  const { adapter: gated, open } = gatedAdapter('ANSWER_ENGINE_A');
  let svc: RunningService;

  beforeAll(async () => {
    const config = fastConfig(tempDir(), {
      engines: { ANSWER_ENGINE_A: { concurrency: SLOTS } },
      scheduler: { pollMs: 600_000 },
    });
    svc = await startService({ AEQ_CONFIG: config }, { registry: defaultRegistry().register(gated) });
  });
  afterAll(() => svc.stop());

  it('takes every slot freed in one turn with one claim', async () => {
    const ids = await Promise.all(
      Array.from({ length: 2 * SLOTS }, (_, i) =>
        submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `refill ${i}` } }),
      ),
    );
    const worker = svc.app.worker!;
    await until(
      'every slot taken',
      async () => worker.inFlightCount(),
      (n) => n === SLOTS,
      10_000,
      20,
    );
    // From here on, each claim of the engine that reached the store, and what it brought.
    const tasks = svc.app.store.tasks;
    const claim = tasks.claim.bind(tasks);
    const seen: Array<{ limit: number; got: number }> = [];
    tasks.claim = async (req: ClaimRequest) => {
      const got = await claim(req);
      if (req.taskType === 'ANSWER_ENGINE_A') seen.push({ limit: req.limit, got: got.length });
      return got;
    };
    open();
    for (const id of ids) expect((await waitTerminal(svc, id)).task.status).toBe('COMPLETED');
    await worker.idle();
    // The first ten ended together: one claim took the ten still queued. The second ten found nothing more.
    expect(seen.filter((c) => c.got > 0)).toEqual([{ limit: SLOTS, got: SLOTS }]);
  });
});
