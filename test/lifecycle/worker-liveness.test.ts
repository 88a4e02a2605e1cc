import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseReaper } from '../../src/queue/lease-reaper.js';
import type { WorkerRegistration } from '../../src/store/ports.js';
import type { Store } from '../../src/store/store.js';
import {
  ALL_ENGINES,
  fastConfig,
  startService,
  steppedClock,
  submit,
  tempDir,
  type RunningService,
} from '../helpers/service.js';

/** An hour: neither the lease reaper's timer nor the liveness sweep's fires during the test; only its steps run. */
const HOUR = 3_600_000;
const ENGINE = 'ANSWER_ENGINE_A';
const CONCURRENCY = 3;

/**
 * Worker liveness, stepped (store/workers/liveness.ts): two registered workers hold tasks and a webhook delivery; one
 * dies (PostgreSQL: its liveness connection is terminated by the server, as on kill -9; SQLite: it is no longer
 * registered in the process that owns the file, as after a restart). The next liveness sweep hands back its tasks,
 * its engine slots and its delivery, long before their leases (an hour) would run out, and takes nothing of the live
 * worker. Engines are paused so the service's own worker claims nothing.
 */
describe('worker liveness (releaseDead on a stepped clock)', () => {
  const clock = steppedClock();
  let svc: RunningService;
  let store: Store;
  let reaper: LeaseReaper;
  const registrations: WorkerRegistration[] = [];
  beforeAll(async () => {
    const config = fastConfig(tempDir(), {
      paused: [...ALL_ENGINES],
      engines: { [ENGINE]: { concurrency: CONCURRENCY } },
      scheduler: { leaseMs: HOUR, livenessMs: HOUR },
    });
    svc = await startService({ AEQ_CONFIG: config }, { clock });
    store = svc.app.store;
    reaper = svc.app.worker!.reaper;
  });
  afterAll(async () => {
    for (const r of registrations) await r.close();
    await svc.stop();
  });

  const register = async () => {
    const r = await store.workers.register({ now: clock.now(), onLost: () => undefined });
    registrations.push(r);
    return r;
  };
  const claim = (workerId: string, limit: number) =>
    store.tasks.claim({ taskType: ENGINE, limit, concurrency: CONCURRENCY, workerId, now: clock.now(), leaseMs: HOUR });
  const status = async (id: string) => (await svc.call('GET', `/v1/async/task/${id}`)).body.task.status as string;

  /** The death of a worker process as the store sees it. */
  async function kill(r: WorkerRegistration): Promise<void> {
    if (store.kind === 'sqlite') {
      await r.close();
      return;
    }
    const db = new pg.Client({ connectionString: svc.app.settings.databaseUrl ?? '' });
    await db.connect();
    try {
      const key = await db.query<{ lock_key: string }>('select lock_key from workers where id = $1', [r.id]);
      const lockKey = key.rows[0]?.lock_key;
      expect(lockKey).toBeDefined();
      const holder = `select pid from pg_locks where locktype = 'advisory' and objsubid = 2 and objid = $1::bigint::oid
        and classid = (hashtext('aeq:workers:' || current_schema()) & 2147483647)::oid`;
      const [row] = (await db.query<{ pid: number }>(holder, [lockKey])).rows;
      expect(row).toBeDefined();
      await db.query('select pg_terminate_backend($1)', [row?.pid]);
      // The server ends the backend (and its lock) a moment after the signal: wait for that, not for a time.
      while ((await db.query(holder, [lockKey])).rowCount !== 0) await new Promise((res) => setTimeout(res, 10));
    } finally {
      await db.end();
    }
  }

  it("hands back a dead worker's tasks, slots and delivery at the next sweep, and never a live worker's", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await submit(svc, { taskType: ENGINE, payload: { prompt: `liveness ${i}` } }));
    const webhookTask = await submit(svc, {
      taskType: 'SEARCH_A',
      payload: { prompt: 'held delivery' },
      webhook: { url: 'http://127.0.0.1:9/hook' },
    });

    const live = await register();
    const doomed = await register();
    const doomedTasks = await claim(doomed.id, 2);
    const liveTasks = await claim(live.id, 1);
    expect(doomedTasks).toHaveLength(2);
    expect(liveTasks).toHaveLength(1);
    // Every slot of the engine is held: nobody can claim.
    expect(await claim(live.id, 5)).toEqual([]);

    // A delivery claimed by the doomed worker's sender. It is due an hour ahead, so the service's own sender (on the
    // clock's time) leaves it alone until it is released.
    const later = clock.now() + HOUR;
    const [held] = await store.tasks.claim({
      taskType: 'SEARCH_A',
      limit: 1,
      concurrency: 1,
      workerId: live.id,
      now: clock.now(),
      leaseMs: HOUR,
    });
    expect(held?.id).toBe(webhookTask);
    const finished = await store.tasks.finish({
      id: webhookTask,
      leaseToken: held?.leaseToken ?? '',
      write: {
        status: 'COMPLETED',
        result: { ok: true },
        error: null,
        creditsToCharge: 1,
        creditsCharged: 1,
        webhook: { url: 'http://127.0.0.1:9/hook', payload: { ok: true }, accountId: held?.accountId ?? '' },
      },
      now: later,
    });
    expect(finished).toBe(true);
    const [delivery] = await store.outbox.claimDue({ now: later, limit: 10, leaseMs: HOUR, holder: doomed.id });
    expect(delivery?.taskId).toBe(webhookTask);

    // PostgreSQL records exit-address and account slots in the store (several processes share them): the doomed
    // worker holds the one slot of an exit address. SQLite's pools live in its one process.
    const slotsShared = store.kind === 'postgres';
    const slot = () =>
      store.poolSlots!.acquire({
        resourceId: 'exit-liveness',
        capacity: 1,
        now: clock.now(),
        expiresAt: clock.now() + HOUR,
        holder: live.id,
      });
    if (slotsShared) {
      expect(
        await store.poolSlots!.acquire({
          resourceId: 'exit-liveness',
          capacity: 1,
          now: clock.now(),
          expiresAt: clock.now() + HOUR,
          holder: doomed.id,
        }),
      ).not.toBeNull();
      expect(await slot()).toBeNull();
    }

    // Both alive: a sweep takes nothing.
    expect(await reaper.releaseDead()).toEqual({ workers: 0, requeued: 0, failed: 0, deliveries: 0 });
    for (const t of [...doomedTasks, ...liveTasks]) expect(await status(t.id)).toBe('PROCESSING');
    expect(await store.outbox.claimDue({ now: later, limit: 10, leaseMs: HOUR, holder: live.id })).toEqual([]);
    if (slotsShared) expect(await slot()).toBeNull();

    await kill(doomed);
    // Nothing moved by itself: the sweep is what hands back.
    for (const t of doomedTasks) expect(await status(t.id)).toBe('PROCESSING');
    expect(await reaper.releaseDead()).toEqual({ workers: 1, requeued: 2, failed: 0, deliveries: 1 });
    for (const t of doomedTasks) expect(await status(t.id)).toBe('QUEUED');
    // The live worker's lease is untouched: it still finishes its task.
    expect(await status(liveTasks[0]!.id)).toBe('PROCESSING');
    expect(
      await store.tasks.heartbeat({
        leases: [{ id: liveTasks[0]!.id, leaseToken: liveTasks[0]!.leaseToken }],
        expiresAt: clock.now(),
      }),
    ).toBe(1);

    // The dead worker's two slots are free again, at the same clock time (no lease ran out), and its exit address.
    expect(await claim(live.id, 5)).toHaveLength(2);
    if (slotsShared) expect(await slot()).not.toBeNull();
    // Its delivery is due again, at the clock's time: the service's sender takes it and makes the first attempt.
    const sender = svc.app.webhooks!;
    await sender.runOnce();
    await sender.idle();
    const log = await store.outbox.log(webhookTask);
    expect(log?.attempts.map((a) => a.attempt)).toEqual([1]);

    // A second sweep finds nothing more, and the live worker is never released.
    expect(await reaper.releaseDead()).toEqual({ workers: 0, requeued: 0, failed: 0, deliveries: 0 });
    expect(await status(liveTasks[0]!.id)).toBe('PROCESSING');
  });

  it.skipIf(process.env.AEQ_TEST_STORE !== 'postgres')(
    'counts a dead worker out of the share of concurrency at once, before its row is swept',
    async () => {
      const before = await store.workers.count();
      // A worker process as the store sees one: its lock held on a session, then its row; the session's end is its
      // death (kill -9), and nothing registers it again.
      const db = new pg.Client({ connectionString: svc.app.settings.databaseUrl ?? '' });
      await db.connect();
      const k = await db.query<{ key: string; ns: number }>(
        `select nextval('aeq_worker_keys') as key, (hashtext('aeq:workers:' || current_schema()) & 2147483647) as ns`,
      );
      const { key, ns } = k.rows[0]!;
      await db.query('select pg_advisory_lock($1::integer, $2::integer)', [ns, Number(key)]);
      await db.query("insert into workers (id, lock_key, started_at) values ('doomed-raw', $1, 0)", [key]);
      expect(await store.workers.count()).toBe(before + 1);
      await db.end();
      // Its row stays until a release of the dead, which another worker may not have committed yet; the live workers'
      // share no longer counts it.
      const watch = new pg.Client({ connectionString: svc.app.settings.databaseUrl ?? '' });
      await watch.connect();
      try {
        for (let i = 0; (await store.workers.count()) !== before && i < 200; i++)
          await new Promise((res) => setTimeout(res, 10));
        expect(await store.workers.count()).toBe(before);
        const rows = await watch.query("select 1 from workers where id = 'doomed-raw'");
        expect(rows.rowCount).toBe(1);
      } finally {
        await watch.end();
      }
      expect((await reaper.releaseDead()).workers).toBe(1);
      expect(await store.workers.count()).toBe(before);
    },
  );
});
