import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/adapters.js';
import { gatedAdapter } from '../helpers/gated-adapter.js';
import { fastConfig, startService, submit, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';
import { freshPostgresUrl, postgresUnavailableReason } from '../helpers/stores.js';
import { until } from '../helpers/wait.js';

const pgSkip = await postgresUnavailableReason();
const SLOTS = 10;
const LIVENESS_MS = 100;

/**
 * Two worker processes share an engine's concurrency (src/queue/worker.ts, `shareConcurrency`): each claims at most
 * half of it, so both run at once. When each could claim all of it, the first claim took every slot and the other
 * worker found no room; after each finish the two raced for the slots and took turns (docs/benchmarks.md, "Lean task
 * indexes"). Two services on one PostgreSQL database, each a worker; the engine's attempts wait for one gate.
 */
describe.skipIf(pgSkip !== null)('two workers share an engine’s concurrency (PostgreSQL)', () => {
  const { adapter: gated, open } = gatedAdapter('ANSWER_ENGINE_A');
  const services: RunningService[] = [];
  let drop: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const db = await freshPostgresUrl();
    drop = db.drop;
    const config = fastConfig(tempDir(), {
      engines: { ANSWER_ENGINE_A: { concurrency: SLOTS } },
      scheduler: { livenessMs: LIVENESS_MS },
    });
    for (let i = 0; i < 2; i++)
      services.push(
        await startService(
          { AEQ_CONFIG: config, DATABASE_URL: db.url },
          { registry: defaultRegistry().register(gated) },
        ),
      );
    // Both registered, and each has counted the other at a liveness step.
    await sleep(4 * LIVENESS_MS);
  });
  afterAll(async () => {
    open();
    for (const s of services) await s.stop();
    await drop();
  });

  it('each takes half of the slots, and together all of them', async () => {
    const [a, b] = services as [RunningService, RunningService];
    const ids = await Promise.all(
      Array.from({ length: 2 * SLOTS }, (_, i) =>
        submit(a, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `share ${i}` } }),
      ),
    );
    const inFlight = () => [a.app.worker!.inFlightCount(), b.app.worker!.inFlightCount()];
    await until(
      'every slot taken',
      async () => inFlight(),
      (n) => n[0]! + n[1]! === SLOTS,
      10_000,
      20,
    );
    // Held a while: neither takes the other's share.
    await sleep(5 * LIVENESS_MS);
    expect(inFlight()).toEqual([SLOTS / 2, SLOTS / 2]);
    open();
    for (const id of ids) expect((await waitTerminal(a, id)).task.status).toBe('COMPLETED');
  });
});
