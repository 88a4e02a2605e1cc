import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewTask, TaskRecord } from '../../src/domain/task.js';
import type { TerminalWrite } from '../../src/store/store.js';
import type { KyselyStore } from '../../src/store/kysely-store.js';
import { openTestStore, postgresUnavailableReason, type StoreKind } from '../helpers/stores.js';

const pgSkip = await postgresUnavailableReason();
if (pgSkip) console.warn(`[store tests] PostgreSQL tests skipped: ${pgSkip}`);

const T0 = 1_800_000_000_000;

function task(over: Partial<NewTask> = {}): NewTask {
  return {
    id: randomUUID(),
    taskType: 'ANSWER_ENGINE_A',
    payload: { prompt: 'p' },
    priority: 1,
    idempotencyKey: null,
    accountId: 'default',
    webhookUrl: null,
    country: null,
    maxAttempts: 3,
    creditsToCharge: 2,
    createdAt: T0,
    ...over,
  };
}

const completed = (webhook: TerminalWrite['webhook'] = null): TerminalWrite => ({
  status: 'COMPLETED',
  result: { text: 'ok' },
  error: null,
  creditsToCharge: 2,
  creditsCharged: 2,
  webhook,
});

const claimArgs = (over: Partial<Parameters<KyselyStore['claimTasks']>[0]> = {}) => ({
  taskType: 'ANSWER_ENGINE_A',
  limit: 10,
  concurrency: 10,
  workerId: 'w1',
  now: T0 + 1000,
  leaseMs: 30_000,
  ...over,
});

for (const kind of ['sqlite', 'postgres'] as StoreKind[]) {
  describe.skipIf(kind === 'postgres' && pgSkip !== null)(`store state machine (${kind})`, () => {
    let store: KyselyStore;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ store, close } = await openTestStore(kind));
    });
    afterEach(() => close());

    it('a duplicate idempotency key is refused with the existing id, also under concurrency', async () => {
      const first = task({ idempotencyKey: 'k1' });
      const [a] = await store.insertTasks([first]);
      expect(a?.ok).toBe(true);
      const [b] = await store.insertTasks([task({ idempotencyKey: 'k1' })]);
      expect(b).toEqual({ ok: false, reason: 'DUPLICATE_KEY', existingId: first.id });
      const racers = await Promise.all(
        Array.from({ length: 20 }, () => store.insertTasks([task({ idempotencyKey: 'race' })])),
      );
      expect(racers.filter(([o]) => o?.ok).length).toBe(1);
    });

    it('frees the key of an expired task that is not swept yet', async () => {
      const old = task({ idempotencyKey: 'k-old', createdAt: T0 - 100_000 });
      await store.insertTasks([old]);
      const [same] = await store.insertTasks([task({ idempotencyKey: 'k-old' })], T0 - 200_000);
      expect(same).toEqual({ ok: false, reason: 'DUPLICATE_KEY', existingId: old.id });
      const fresh = task({ idempotencyKey: 'k-old' });
      const [taken] = await store.insertTasks([fresh], T0 - 50_000);
      expect(taken?.ok).toBe(true);
      expect(await store.getTask(old.id, 0)).toBeUndefined();
    });

    it('claims no more than the engine concurrency, counting tasks already running', async () => {
      await store.insertTasks(Array.from({ length: 5 }, () => task()));
      expect(await store.claimTasks(claimArgs({ concurrency: 2 }))).toHaveLength(2);
      expect(await store.claimTasks(claimArgs({ concurrency: 2, workerId: 'w2' }))).toHaveLength(0);
      expect(await store.claimTasks(claimArgs({ concurrency: 3, workerId: 'w2' }))).toHaveLength(1);
    });

    it('serves higher priority first, and ageing lets an old low-priority task overtake', async () => {
      const low = task({ priority: 1, createdAt: T0 });
      const high = task({ priority: 5, createdAt: T0 + 1 });
      await store.insertTasks([low, high]);
      const [first] = await store.claimTasks(claimArgs({ limit: 1 }));
      expect(first?.id).toBe(high.id);

      const old = task({ priority: 1, createdAt: T0 - 10 * 60_000 });
      const fresh = task({ priority: 5, createdAt: T0 });
      await store.insertTasks([fresh, old]);
      const claimed = await store.claimTasks(claimArgs({ limit: 2, workerId: 'w3' }));
      // sort keys: old = T0-660s, fresh (priority 5) = T0-300s, low = T0-60s.
      expect(claimed.map((t) => t.id)).toEqual([old.id, fresh.id]);
    });

    it('does not claim a task before it is due', async () => {
      const t = task();
      await store.insertTasks([t]);
      const [c] = await store.claimTasks(claimArgs());
      expect(await store.retryTask(t.id, c!.leaseToken, 'ENGINE_FAILED: x', T0 + 60_000, T0 + 1000)).toBe(true);
      expect(await store.claimTasks(claimArgs({ now: T0 + 59_000 }))).toHaveLength(0);
      const [again] = await store.claimTasks(claimArgs({ now: T0 + 60_000 }));
      expect(again?.attempts).toBe(2);
    });

    it('only the lease holder can finish, and a terminal task never changes again', async () => {
      const t = task({ webhookUrl: 'https://example.com/hook' });
      await store.insertTasks([t]);
      const [c] = await store.claimTasks(claimArgs());
      expect(c?.status).toBe('PROCESSING');
      expect(await store.finishTask(t.id, 'not-the-token', completed(), T0 + 2000)).toBe(false);
      expect(
        await store.finishTask(
          t.id,
          c!.leaseToken,
          completed({ url: 'https://example.com/hook', payload: { a: 1 }, accountId: 'default' }),
          T0 + 2000,
        ),
      ).toBe(true);
      expect(
        await store.finishTask(
          t.id,
          c!.leaseToken,
          { ...completed(), status: 'FAILED', error: 'x', creditsCharged: 0 },
          T0 + 3000,
        ),
      ).toBe(false);
      expect(await store.retryTask(t.id, c!.leaseToken, 'x', T0, T0 + 3000)).toBe(false);
      const got = (await store.getTask(t.id, 0)) as TaskRecord;
      expect(got.status).toBe('COMPLETED');
      expect(got.result).toEqual({ text: 'ok' });
      expect(got.creditsCharged).toBe(2);
      // The poll's read shows the same fields as the whole record, without the payload, and the result as the stored
      // JSON text.
      const polled = await store.pollTask(t.id, 0);
      expect(polled).toEqual({
        id: t.id,
        taskType: 'ANSWER_ENGINE_A',
        status: 'COMPLETED',
        priority: 1,
        createdAt: T0,
        idempotencyKey: null,
        accountId: 'default',
        resultJson: JSON.stringify({ text: 'ok' }),
        error: null,
        failure: null,
        creditsToCharge: 2,
        creditsCharged: 2,
      });
      // The delivery was written with the terminal state.
      const due = await store.claimDueDeliveries(T0 + 2000, 10, 60_000);
      expect(due.map((d) => d.taskId)).toEqual([t.id]);
      expect(JSON.parse(due[0]!.payload)).toEqual({ a: 1 });
    });

    it('returns tasks of a dead worker to the queue, and the stale holder cannot finish them', async () => {
      const t = task();
      await store.insertTasks([t]);
      const [c] = await store.claimTasks(claimArgs({ leaseMs: 1000 }));
      const fail = (): TerminalWrite => ({
        ...completed(),
        status: 'FAILED',
        error: 'ENGINE_TIMEOUT: x',
        creditsCharged: 0,
      });
      expect(await store.reapExpiredLeases(T0 + 1500, fail)).toEqual({ requeued: [], failed: [] });
      expect(await store.reapExpiredLeases(T0 + 2001, fail)).toEqual({ requeued: [t.id], failed: [] });
      expect(await store.finishTask(t.id, c!.leaseToken, completed(), T0 + 2100)).toBe(false);
      const [c2] = await store.claimTasks(claimArgs({ now: T0 + 2200, workerId: 'w2' }));
      expect(c2?.id).toBe(t.id);
      // Every write of the stale holder is fenced off while the new holder has the task.
      expect(await store.heartbeat([{ id: t.id, leaseToken: c!.leaseToken }], T0 + 60_000)).toBe(0);
      expect(await store.retryTask(t.id, c!.leaseToken, 'x', T0 + 2250, T0 + 2250)).toBe(false);
      expect(await store.finishTask(t.id, c!.leaseToken, completed(), T0 + 2250)).toBe(false);
      expect(await store.finishTask(t.id, c2!.leaseToken, completed(), T0 + 2300)).toBe(true);
    });

    it('fails a task whose lease expires on its last attempt, writing its webhook', async () => {
      const t = task({ maxAttempts: 1, webhookUrl: 'https://example.com/h' });
      await store.insertTasks([t]);
      await store.claimTasks(claimArgs({ leaseMs: 1000 }));
      const r = await store.reapExpiredLeases(T0 + 5000, () => ({
        status: 'FAILED',
        result: undefined,
        error: 'ENGINE_TIMEOUT: x',
        creditsToCharge: 2,
        creditsCharged: 0,
        webhook: { url: 'https://example.com/h', payload: { failed: true }, accountId: 'default' },
      }));
      expect(r.failed).toEqual([t.id]);
      expect((await store.getTask(t.id, 0))?.status).toBe('FAILED');
      expect(await store.claimDueDeliveries(T0 + 5000, 10, 60_000)).toHaveLength(1);
    });

    it('heartbeats extend only leases still held', async () => {
      const t = task();
      await store.insertTasks([t]);
      const [c] = await store.claimTasks(claimArgs({ leaseMs: 1000 }));
      expect(
        await store.heartbeat(
          [
            { id: t.id, leaseToken: c!.leaseToken },
            { id: t.id, leaseToken: 'stale' },
          ],
          T0 + 10_000,
        ),
      ).toBe(1);
      const fail = (): TerminalWrite => ({ ...completed(), status: 'FAILED', error: 'x', creditsCharged: 0 });
      expect((await store.reapExpiredLeases(T0 + 5000, fail)).requeued).toEqual([]);
    });

    it('makes each webhook attempt number at most once', async () => {
      const t = task({ webhookUrl: 'https://example.com/h' });
      await store.insertTasks([t]);
      const [c] = await store.claimTasks(claimArgs());
      await store.finishTask(
        t.id,
        c!.leaseToken,
        completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
        T0 + 2000,
      );
      const [d] = await store.claimDueDeliveries(T0 + 2000, 10, 60_000);
      expect(await store.startDeliveryAttempt(t.id, d!.leaseToken, 1, T0 + 2000)).toBe(true);
      expect(await store.startDeliveryAttempt(t.id, d!.leaseToken, 1, T0 + 2000)).toBe(false);
      await store.finishDeliveryAttempt(
        t.id,
        d!.leaseToken,
        1,
        { kind: 'retry', at: T0 + 10_000, error: 'HTTP 500', httpStatus: 500 },
        T0 + 2100,
      );
      expect(await store.claimDueDeliveries(T0 + 9000, 10, 60_000)).toHaveLength(0);
      const [d2] = await store.claimDueDeliveries(T0 + 10_000, 10, 60_000);
      expect(d2?.attempts).toBe(1);
      expect(await store.startDeliveryAttempt(t.id, d2!.leaseToken, 2, T0 + 10_000)).toBe(true);
    });

    it('expires tasks: hidden after the retention window, then deleted with their deliveries', async () => {
      const old = task({ createdAt: T0 - 100_000, webhookUrl: 'https://example.com/h' });
      const fresh = task({ createdAt: T0 });
      await store.insertTasks([old, fresh]);
      expect(await store.getTask(old.id, T0 - 50_000)).toBeUndefined();
      expect(await store.getTask(fresh.id, T0 - 50_000)).toBeDefined();
      expect(await store.pollTask(old.id, T0 - 50_000)).toBeUndefined();
      expect(await store.pollTask(fresh.id, T0 - 50_000)).toMatchObject({
        id: fresh.id,
        status: 'QUEUED',
        resultJson: null,
        creditsCharged: null,
      });
      expect(await store.deleteExpired(T0 - 50_000, 100)).toBe(1);
      expect(await store.getTask(old.id, 0)).toBeUndefined();
      const s = await store.stats(0);
      expect(s.tasks).toEqual({ QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 });
    });

    it('counts by status and engine follow every transition, leaving out expired tasks not swept yet', async () => {
      const a = task({ webhookUrl: 'https://example.com/h' });
      const b = task();
      const c = task({ taskType: 'FORUM' });
      const expired = task({ createdAt: T0 - 100_000 });
      await store.insertTasks([a, b, c]);
      const claimed = await store.claimTasks(claimArgs({ limit: 2 }));
      expect(claimed).toHaveLength(2);
      await store.insertTasks([expired]);
      await store.finishTask(
        claimed[0]!.id,
        claimed[0]!.leaseToken,
        completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
        T0 + 2000,
      );
      await store.retryTask(claimed[1]!.id, claimed[1]!.leaseToken, 'x', T0 + 5000, T0 + 2000);
      const s = await store.stats(T0 - 50_000);
      expect(s.tasks).toEqual({ QUEUED: 2, PROCESSING: 0, COMPLETED: 1, FAILED: 0 });
      expect(s.byEngine).toEqual({
        ANSWER_ENGINE_A: { QUEUED: 1, PROCESSING: 0, COMPLETED: 1, FAILED: 0 },
        FORUM: { QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 },
      });
      expect(s.webhooks).toEqual({ pending: 1, delivered: 0, abandoned: 0 });
      expect((await store.stats(0)).tasks.QUEUED).toBe(3);
      expect(await store.queuedAndRunning(T0 - 50_000)).toEqual({
        ANSWER_ENGINE_A: { queued: 1, processing: 0 },
        FORUM: { queued: 1, processing: 0 },
      });
      // The same figures as an aggregate over the rows themselves.
      const rows = await store.db
        .selectFrom('tasks')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('created_at', '>=', T0 - 50_000)
        .groupBy('status')
        .execute();
      expect(Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))).toEqual({ QUEUED: 2, COMPLETED: 1 });
      await store.deleteExpired(T0 - 50_000, 100);
      expect((await store.stats(0)).tasks.QUEUED).toBe(2);
    });

    it('claims again a delivery whose sender died, once its lease has expired, and fences the old sender', async () => {
      const t = task({ webhookUrl: 'https://example.com/h' });
      await store.insertTasks([t]);
      const [c] = await store.claimTasks(claimArgs());
      await store.finishTask(
        t.id,
        c!.leaseToken,
        completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
        T0 + 2000,
      );
      const [first] = await store.claimDueDeliveries(T0 + 2000, 10, 1000);
      expect(await store.startDeliveryAttempt(t.id, first!.leaseToken, 1, T0 + 2000)).toBe(true);
      expect(await store.claimDueDeliveries(T0 + 2500, 10, 1000)).toHaveLength(0);
      const [again] = await store.claimDueDeliveries(T0 + 3500, 10, 1000);
      expect(again).toMatchObject({ taskId: t.id, attempts: 1 });
      expect(again!.leaseToken).not.toBe(first!.leaseToken);
      expect(await store.startDeliveryAttempt(t.id, first!.leaseToken, 2, T0 + 3500)).toBe(false);
      expect(await store.startDeliveryAttempt(t.id, again!.leaseToken, 2, T0 + 3500)).toBe(true);
    });

    it('finishes of one turn each keep their own fence; a task finished twice at once is finished once', async () => {
      const ts = [task(), task(), task()];
      await store.insertTasks(ts);
      const claimed = new Map((await store.claimTasks(claimArgs())).map((c) => [c.id, c.leaseToken]));
      const tokenOf = (i: number) => claimed.get(ts[i]!.id)!;
      const results = await Promise.all(
        ts.map((t, i) => store.finishTask(t.id, i === 1 ? 'stale' : tokenOf(i), completed(), T0 + 2000)),
      );
      expect(results).toEqual([true, false, true]);
      expect((await store.getTask(ts[0]!.id, 0))?.result).toEqual({ text: 'ok' });
      expect((await store.getTask(ts[1]!.id, 0))?.status).toBe('PROCESSING');
      const twice = await Promise.all(
        [1, 2].map(() => store.finishTask(ts[1]!.id, tokenOf(1), completed(), T0 + 3000)),
      );
      expect(twice.filter(Boolean)).toHaveLength(1);
      expect((await store.stats(0)).tasks).toEqual({ QUEUED: 0, PROCESSING: 0, COMPLETED: 3, FAILED: 0 });
    });

    it('pool leases hold a resource to capacity under concurrent acquires, free it on release or expiry', async () => {
      const acquire = (capacity: number, now = T0, expires = T0 + 10_000) =>
        store.acquirePoolLease('exit-1', capacity, now, expires);
      const first = await Promise.all(Array.from({ length: 10 }, () => acquire(3)));
      const held = first.filter((t): t is string => t !== null);
      expect(held).toHaveLength(3);
      expect(await acquire(3)).toBeNull();
      await store.releasePoolLease(held[0]!);
      expect(await acquire(3)).not.toBeNull();
      expect(await acquire(3)).toBeNull();
      // A raised capacity is usable at once; a lowered one admits nobody while it is exceeded.
      expect(await acquire(5)).not.toBeNull();
      expect(await acquire(5)).not.toBeNull();
      expect(await acquire(5)).toBeNull();
      expect(await acquire(2)).toBeNull();
      // Another resource is counted apart.
      expect(await store.acquirePoolLease('exit-2', 1, T0, T0 + 10_000)).not.toBeNull();
      // Leases run out: at their expiry the whole capacity is free again.
      const later = await Promise.all(Array.from({ length: 8 }, () => acquire(5, T0 + 10_000, T0 + 20_000)));
      expect(later.filter((t) => t !== null)).toHaveLength(5);
    });

    it('pool leases asked for together over several resources: each to its capacity, as its slots grow', async () => {
      // One turn: on PostgreSQL one call for all of them, the slots of each resource made as needed.
      const asks = Array.from({ length: 300 }, (_, i) =>
        i % 3 === 0
          ? store.acquirePoolLease('exit-small', 40, T0, T0 + 10_000)
          : store.acquirePoolLease('exit-large', 150, T0, T0 + 10_000),
      );
      const tokens = await Promise.all(asks);
      const granted = tokens.filter((t): t is string => t !== null);
      expect(tokens.filter((t, i) => t !== null && i % 3 === 0)).toHaveLength(40);
      expect(tokens.filter((t, i) => t !== null && i % 3 !== 0)).toHaveLength(150);
      expect(new Set(granted).size).toBe(granted.length);
      // Released together, they are free together.
      await Promise.all(granted.map((t) => store.releasePoolLease(t)));
      const again = await Promise.all(
        Array.from({ length: 41 }, () => store.acquirePoolLease('exit-small', 40, T0, T0 + 10_000)),
      );
      expect(again.filter((t) => t !== null)).toHaveLength(40);
    });

    it.skipIf(kind !== 'sqlite')(
      'writes of one event-loop turn commit together, and one that fails rolls back alone',
      async () => {
        const first = task();
        await store.insertTasks([first]);
        const ok = task();
        const partner = task();
        const results = await Promise.allSettled([
          store.insertTasks([ok]),
          // Same primary key as `first`: the insert throws, and `partner` (same call) must not stay.
          store.insertTasks([partner, { ...task(), id: first.id }]),
        ]);
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
        expect(await store.getTask(ok.id, 0)).toBeDefined();
        expect(await store.getTask(partner.id, 0)).toBeUndefined();
        expect((await store.stats(0)).tasks.QUEUED).toBe(2);
      },
    );

    it.skipIf(kind !== 'sqlite')(
      'reads of one turn are answered together once it ends, each with its own outcome',
      async () => {
        const a = task();
        await store.insertTasks([a]);
        const answered: string[] = [];
        const polls = [a.id, randomUUID(), a.id].map((id, i) =>
          store.pollTask(id, 0).then((t) => answered.push(`${i}:${t?.status ?? 'none'}`)),
        );
        answered.push('turn goes on');
        await Promise.resolve();
        expect(answered).toEqual(['turn goes on']);
        await Promise.all(polls);
        expect(answered).toEqual(['turn goes on', '0:QUEUED', '1:none', '2:QUEUED']);
      },
    );
  });
}
