import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/adapters.js';
import type { EngineAdapter } from '../../src/engines/adapter.js';
import type { ClaimRequest, TaskQueue } from '../../src/store/ports.js';
import { fastConfig, startService, submit, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

const SLOTS = 4;

/**
 * The claim ahead of the finish (src/queue/worker.ts): when attempts end, the claim for the next tasks goes out beside
 * their finish instead of after it. The store counts the ended attempts' tasks, still PROCESSING until the finish
 * commits, as free room, and (PostgreSQL) frees their exit-address slots before it leases. Here every finish is held
 * until the test lets it through, so the only way the next tasks can start is a claim that does both; the one exit
 * address has exactly the engine's concurrency, so a claim that did not free the ended slots would lease none. No more
 * finishes than the concurrency wait at once: the attempts that end beyond it keep their slots until theirs answer.
 */
describe('the claim ahead of the finish', () => {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  let started = 0;
  let ended = 0;
  const gated: EngineAdapter = {
    taskType: 'ANSWER_ENGINE_A',
    needsAccount: false,
    async run() {
      started++;
      try {
        await gate;
        return { text: 'ok', markdown: 'ok', sources: [], raw: null };
      } finally {
        ended++;
      }
    },
  };
  let svc: RunningService;

  beforeAll(async () => {
    const config = fastConfig(tempDir(), {
      engines: { ANSWER_ENGINE_A: { concurrency: SLOTS } },
      scheduler: { pollMs: 600_000 },
    });
    const file = JSON.parse(fs.readFileSync(config, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(
      config,
      JSON.stringify({ ...file, exitAddresses: [{ id: 'only-exit', country: 'US', maxConcurrent: SLOTS }] }),
    );
    svc = await startService({ AEQ_CONFIG: config }, { registry: defaultRegistry().register(gated) });
  });
  afterAll(() => svc.stop());

  it('starts the next tasks while the last ones are still being finished, up to a concurrency of finishes', async () => {
    const ids = await Promise.all(
      Array.from({ length: 3 * SLOTS }, (_, i) =>
        submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `ahead ${i}` } }),
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

    const tasks = svc.app.store.tasks;
    const finish = tasks.finish.bind(tasks);
    let letFinish: () => void = () => undefined;
    const finishes = new Promise<void>((r) => {
      letFinish = r;
    });
    tasks.finish = async (f: Parameters<TaskQueue['finish']>[0]) => {
      await finishes;
      return finish(f);
    };
    const claim = tasks.claim.bind(tasks);
    const seen: Array<{ ended: number; got: number; leased: number }> = [];
    tasks.claim = async (req: ClaimRequest) => {
      const got = await claim(req);
      if (req.taskType === 'ANSWER_ENGINE_A')
        seen.push({
          ended: req.ended?.length ?? 0,
          got: got.length,
          leased: got.filter((t) => t.exitLease !== undefined).length,
        });
      return got;
    };

    open();
    // The first four attempts ended, their finish is held: the next four are claimed and run all the same.
    await until(
      'the next tasks ran',
      async () => ended,
      (n) => n === 2 * SLOTS,
      10_000,
      20,
    );
    const first = await Promise.all(ids.slice(0, SLOTS).map((id) => svc.call('GET', `/v1/async/task/${id}`)));
    expect(first.map((r) => r.body.task.status)).toEqual(Array(SLOTS).fill('PROCESSING'));
    // One claim, naming the four ended attempts, took four queued tasks; on PostgreSQL each with its exit address,
    // which only the ended attempts' freed slots could give.
    const leased = svc.app.store.kind === 'postgres' ? SLOTS : 0;
    expect(seen.filter((c) => c.got > 0)).toEqual([{ ended: SLOTS, got: SLOTS, leased }]);
    // The second four ended too, with four finishes already waiting: they keep their slots, and the last four wait.
    await new Promise((r) => setTimeout(r, 300));
    expect(started).toBe(2 * SLOTS);

    letFinish();
    for (const id of ids) expect((await waitTerminal(svc, id)).task.status).toBe('COMPLETED');
    await worker.idle();
    expect(started).toBe(3 * SLOTS);
    // Every exit-address slot the claims leased was freed, by a claim or by a finish.
    if (svc.app.store.kind === 'postgres') {
      const held = await sql<{ n: string }>`select count(*) as n from pool_slots where token is not null`.execute(
        svc.app.store.db,
      );
      expect(Number(held.rows[0]?.n)).toBe(0);
    }
  });
});
