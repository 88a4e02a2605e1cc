import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/adapters.js';
import type { EngineAdapter } from '../../src/engines/adapter.js';
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

/**
 * An adapter whose first `n` attempts wait for one gate and every later attempt for a second: what the first wave
 * frees is refilled by attempts that hold their slots, so where each slot went can be read.
 */
function twoGateAdapter(n: number): { adapter: EngineAdapter; openFirst: () => void; openRest: () => void } {
  const first = gatedAdapter('ANSWER_ENGINE_A');
  const rest = gatedAdapter('ANSWER_ENGINE_A');
  let calls = 0;
  const adapter: EngineAdapter = {
    ...first.adapter,
    run: (ctx) => (calls++ < n ? first.adapter.run(ctx) : rest.adapter.run(ctx)),
  };
  return { adapter, openFirst: first.open, openRest: rest.open };
}

/**
 * A worker that took more than its share (it claimed before the other worker was counted) does not refill the slots
 * beyond its share as its attempts end: it wakes the other workers, which take them at once (src/queue/worker.ts,
 * `onSlotHandedOver`), not at their next poll. The poll is off here, so the second worker claims on a wake-up or not
 * at all; before the hand-over the first worker refilled its share and the other half of the slots stayed empty.
 */
describe.skipIf(pgSkip !== null)('slots beyond a worker’s share are handed over (PostgreSQL)', () => {
  const { adapter, openFirst, openRest } = twoGateAdapter(SLOTS);
  const services: RunningService[] = [];
  let drop: () => Promise<void> = async () => undefined;
  let config = '';
  let url = '';
  const start = () =>
    startService({ AEQ_CONFIG: config, DATABASE_URL: url }, { registry: defaultRegistry().register(adapter) });

  beforeAll(async () => {
    const db = await freshPostgresUrl();
    drop = db.drop;
    url = db.url;
    config = fastConfig(tempDir(), {
      engines: { ANSWER_ENGINE_A: { concurrency: SLOTS } },
      scheduler: { livenessMs: LIVENESS_MS, pollMs: 600_000 },
    });
    services.push(await start());
  });
  afterAll(async () => {
    openFirst();
    openRest();
    for (const s of services) await s.stop();
    await drop();
  });

  it('the other worker takes them as they end', async () => {
    const a = services[0]!;
    const ids = await Promise.all(
      Array.from({ length: 2 * SLOTS }, (_, i) =>
        submit(a, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `hand over ${i}` } }),
      ),
    );
    // Alone, the first worker's share is every slot.
    await until(
      'every slot taken by the first worker',
      async () => a.app.worker!.inFlightCount(),
      (n) => n === SLOTS,
      10_000,
      20,
    );
    const b = await start();
    services.push(b);
    // Each has counted the other: the first now holds twice its share, the second none of its own.
    await sleep(4 * LIVENESS_MS);
    const inFlight = () => [a.app.worker!.inFlightCount(), b.app.worker!.inFlightCount()];
    expect(inFlight()).toEqual([SLOTS, 0]);
    // The first wave ends: the first worker refills its share, the second takes the rest, on the wake-up alone.
    openFirst();
    await until(
      'the slots split between the workers',
      async () => inFlight(),
      (n) => n[0] === SLOTS / 2 && n[1] === SLOTS / 2,
      10_000,
      20,
    );
    openRest();
    for (const id of ids) expect((await waitTerminal(a, id)).task.status).toBe('COMPLETED');
  });
});
