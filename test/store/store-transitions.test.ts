import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewTask, TaskRecord } from '../../src/domain/task.js';
import type { ClaimRequest, TerminalWrite } from '../../src/store/ports.js';
import type { Store } from '../../src/store/store.js';
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

const claimArgs = (over: Partial<ClaimRequest> = {}) => ({
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
    let store: Store;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ store, close } = await openTestStore(kind));
    });
    afterEach(() => close());

    it('a duplicate idempotency key is refused with the existing id, also under concurrency', async () => {
      const first = task({ idempotencyKey: 'k1' });
      const [a] = await store.tasks.insert({ tasks: [first] });
      expect(a?.ok).toBe(true);
      const [b] = await store.tasks.insert({ tasks: [task({ idempotencyKey: 'k1' })] });
      expect(b).toEqual({ ok: false, reason: 'DUPLICATE_KEY', existingId: first.id });
      const racers = await Promise.all(
        Array.from({ length: 20 }, () => store.tasks.insert({ tasks: [task({ idempotencyKey: 'race' })] })),
      );
      expect(racers.filter(([o]) => o?.ok).length).toBe(1);
    });

    it('frees the key of an expired task that is not swept yet', async () => {
      const old = task({ idempotencyKey: 'k-old', createdAt: T0 - 100_000 });
      await store.tasks.insert({ tasks: [old] });
      const [same] = await store.tasks.insert({ tasks: [task({ idempotencyKey: 'k-old' })], notBefore: T0 - 200_000 });
      expect(same).toEqual({ ok: false, reason: 'DUPLICATE_KEY', existingId: old.id });
      const fresh = task({ idempotencyKey: 'k-old' });
      const [taken] = await store.tasks.insert({ tasks: [fresh], notBefore: T0 - 50_000 });
      expect(taken?.ok).toBe(true);
      expect(await store.tasks.get({ id: old.id, notBefore: 0 })).toBeUndefined();
    });

    it('claims no more than the engine concurrency, counting tasks already running', async () => {
      await store.tasks.insert({ tasks: Array.from({ length: 5 }, () => task()) });
      expect(await store.tasks.claim(claimArgs({ concurrency: 2 }))).toHaveLength(2);
      expect(await store.tasks.claim(claimArgs({ concurrency: 2, workerId: 'w2' }))).toHaveLength(0);
      expect(await store.tasks.claim(claimArgs({ concurrency: 3, workerId: 'w2' }))).toHaveLength(1);
    });

    it('serves higher priority first, and ageing lets an old low-priority task overtake', async () => {
      const low = task({ priority: 1, createdAt: T0 });
      const high = task({ priority: 5, createdAt: T0 + 1 });
      await store.tasks.insert({ tasks: [low, high] });
      const [first] = await store.tasks.claim(claimArgs({ limit: 1 }));
      expect(first?.id).toBe(high.id);

      const old = task({ priority: 1, createdAt: T0 - 10 * 60_000 });
      const fresh = task({ priority: 5, createdAt: T0 });
      await store.tasks.insert({ tasks: [fresh, old] });
      const claimed = await store.tasks.claim(claimArgs({ limit: 2, workerId: 'w3' }));
      // sort keys: old = T0-660s, fresh (priority 5) = T0-300s, low = T0-60s.
      expect(claimed.map((t) => t.id)).toEqual([old.id, fresh.id]);
    });

    it('does not claim a task before it is due', async () => {
      const t = task();
      await store.tasks.insert({ tasks: [t] });
      const [c] = await store.tasks.claim(claimArgs());
      expect(
        await store.tasks.retry({
          id: t.id,
          leaseToken: c!.leaseToken,
          error: 'ENGINE_FAILED: x',
          availableAt: T0 + 60_000,
          now: T0 + 1000,
        }),
      ).toBe(true);
      expect(await store.tasks.claim(claimArgs({ now: T0 + 59_000 }))).toHaveLength(0);
      const [again] = await store.tasks.claim(claimArgs({ now: T0 + 60_000 }));
      expect(again?.attempts).toBe(2);
    });

    it('only the lease holder can finish, and a terminal task never changes again', async () => {
      const t = task({ webhookUrl: 'https://example.com/hook' });
      await store.tasks.insert({ tasks: [t] });
      const [c] = await store.tasks.claim(claimArgs());
      expect(c?.status).toBe('PROCESSING');
      expect(
        await store.tasks.finish({ id: t.id, leaseToken: 'not-the-token', write: completed(), now: T0 + 2000 }),
      ).toBe(false);
      expect(
        await store.tasks.finish({
          id: t.id,
          leaseToken: c!.leaseToken,
          write: completed({ url: 'https://example.com/hook', payload: { a: 1 }, accountId: 'default' }),
          now: T0 + 2000,
        }),
      ).toBe(true);
      expect(
        await store.tasks.finish({
          id: t.id,
          leaseToken: c!.leaseToken,
          write: { ...completed(), status: 'FAILED', error: 'x', creditsCharged: 0 },
          now: T0 + 3000,
        }),
      ).toBe(false);
      expect(
        await store.tasks.retry({ id: t.id, leaseToken: c!.leaseToken, error: 'x', availableAt: T0, now: T0 + 3000 }),
      ).toBe(false);
      const got = (await store.tasks.get({ id: t.id, notBefore: 0 })) as TaskRecord;
      expect(got.status).toBe('COMPLETED');
      expect(got.result).toEqual({ text: 'ok' });
      expect(got.creditsCharged).toBe(2);
      // The poll's read shows the same fields as the whole record, without the payload, and the result as the stored
      // JSON text.
      const polled = await store.tasks.poll({ id: t.id, notBefore: 0 });
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
      const due = await store.outbox.claimDue({ now: T0 + 2000, limit: 10, leaseMs: 60_000 });
      expect(due.map((d) => d.taskId)).toEqual([t.id]);
      expect(JSON.parse(due[0]!.payload)).toEqual({ a: 1 });
    });

    it('returns tasks of a dead worker to the queue, and the stale holder cannot finish them', async () => {
      const t = task();
      await store.tasks.insert({ tasks: [t] });
      const [c] = await store.tasks.claim(claimArgs({ leaseMs: 1000 }));
      const fail = (): TerminalWrite => ({
        ...completed(),
        status: 'FAILED',
        error: 'ENGINE_TIMEOUT: x',
        creditsCharged: 0,
      });
      expect(await store.tasks.reapExpired({ now: T0 + 1500, failedWrite: fail })).toEqual({
        requeued: [],
        failed: [],
      });
      expect(await store.tasks.reapExpired({ now: T0 + 2001, failedWrite: fail })).toEqual({
        requeued: [t.id],
        failed: [],
      });
      expect(
        await store.tasks.finish({ id: t.id, leaseToken: c!.leaseToken, write: completed(), now: T0 + 2100 }),
      ).toBe(false);
      const [c2] = await store.tasks.claim(claimArgs({ now: T0 + 2200, workerId: 'w2' }));
      expect(c2?.id).toBe(t.id);
      // Every write of the stale holder is fenced off while the new holder has the task.
      expect(
        await store.tasks.heartbeat({ leases: [{ id: t.id, leaseToken: c!.leaseToken }], expiresAt: T0 + 60_000 }),
      ).toBe(0);
      expect(
        await store.tasks.retry({
          id: t.id,
          leaseToken: c!.leaseToken,
          error: 'x',
          availableAt: T0 + 2250,
          now: T0 + 2250,
        }),
      ).toBe(false);
      expect(
        await store.tasks.finish({ id: t.id, leaseToken: c!.leaseToken, write: completed(), now: T0 + 2250 }),
      ).toBe(false);
      expect(
        await store.tasks.finish({ id: t.id, leaseToken: c2!.leaseToken, write: completed(), now: T0 + 2300 }),
      ).toBe(true);
    });

    it('fails a task whose lease expires on its last attempt, writing its webhook', async () => {
      const t = task({ maxAttempts: 1, webhookUrl: 'https://example.com/h' });
      await store.tasks.insert({ tasks: [t] });
      await store.tasks.claim(claimArgs({ leaseMs: 1000 }));
      const r = await store.tasks.reapExpired({
        now: T0 + 5000,
        failedWrite: () => ({
          status: 'FAILED',
          result: undefined,
          error: 'ENGINE_TIMEOUT: x',
          creditsToCharge: 2,
          creditsCharged: 0,
          webhook: { url: 'https://example.com/h', payload: { failed: true }, accountId: 'default' },
        }),
      });
      expect(r.failed).toEqual([t.id]);
      expect((await store.tasks.get({ id: t.id, notBefore: 0 }))?.status).toBe('FAILED');
      expect(await store.outbox.claimDue({ now: T0 + 5000, limit: 10, leaseMs: 60_000 })).toHaveLength(1);
    });

    it('heartbeats extend only leases still held', async () => {
      const t = task();
      await store.tasks.insert({ tasks: [t] });
      const [c] = await store.tasks.claim(claimArgs({ leaseMs: 1000 }));
      expect(
        await store.tasks.heartbeat({
          leases: [
            { id: t.id, leaseToken: c!.leaseToken },
            { id: t.id, leaseToken: 'stale' },
          ],
          expiresAt: T0 + 10_000,
        }),
      ).toBe(1);
      const fail = (): TerminalWrite => ({ ...completed(), status: 'FAILED', error: 'x', creditsCharged: 0 });
      expect((await store.tasks.reapExpired({ now: T0 + 5000, failedWrite: fail })).requeued).toEqual([]);
    });

    it('makes each webhook attempt number at most once', async () => {
      const t = task({ webhookUrl: 'https://example.com/h' });
      await store.tasks.insert({ tasks: [t] });
      const [c] = await store.tasks.claim(claimArgs());
      await store.tasks.finish({
        id: t.id,
        leaseToken: c!.leaseToken,
        write: completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
        now: T0 + 2000,
      });
      const [d] = await store.outbox.claimDue({ now: T0 + 2000, limit: 10, leaseMs: 60_000 });
      expect(
        await store.outbox.startAttempt({ taskId: t.id, leaseToken: d!.leaseToken, attempt: 1, now: T0 + 2000 }),
      ).toBe(true);
      expect(
        await store.outbox.startAttempt({ taskId: t.id, leaseToken: d!.leaseToken, attempt: 1, now: T0 + 2000 }),
      ).toBe(false);
      await store.outbox.finishAttempt({
        taskId: t.id,
        leaseToken: d!.leaseToken,
        attempt: 1,
        outcome: { kind: 'retry', at: T0 + 10_000, error: 'HTTP 500', httpStatus: 500 },
        now: T0 + 2100,
      });
      expect(await store.outbox.claimDue({ now: T0 + 9000, limit: 10, leaseMs: 60_000 })).toHaveLength(0);
      const [d2] = await store.outbox.claimDue({ now: T0 + 10_000, limit: 10, leaseMs: 60_000 });
      expect(d2?.attempts).toBe(1);
      expect(
        await store.outbox.startAttempt({ taskId: t.id, leaseToken: d2!.leaseToken, attempt: 2, now: T0 + 10_000 }),
      ).toBe(true);
    });

    it('expires tasks: hidden after the retention window, then deleted with their deliveries', async () => {
      const old = task({ createdAt: T0 - 100_000, webhookUrl: 'https://example.com/h' });
      const fresh = task({ createdAt: T0 });
      await store.tasks.insert({ tasks: [old, fresh] });
      expect(await store.tasks.get({ id: old.id, notBefore: T0 - 50_000 })).toBeUndefined();
      expect(await store.tasks.get({ id: fresh.id, notBefore: T0 - 50_000 })).toBeDefined();
      expect(await store.tasks.poll({ id: old.id, notBefore: T0 - 50_000 })).toBeUndefined();
      expect(await store.tasks.poll({ id: fresh.id, notBefore: T0 - 50_000 })).toMatchObject({
        id: fresh.id,
        status: 'QUEUED',
        resultJson: null,
        creditsCharged: null,
      });
      expect(await store.tasks.deleteExpired({ before: T0 - 50_000, limit: 100 })).toBe(1);
      expect(await store.tasks.get({ id: old.id, notBefore: 0 })).toBeUndefined();
      const s = await store.figures.stats({ notBefore: 0 });
      expect(s.tasks).toEqual({ QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 });
    });

    it('counts by status and engine follow every transition, leaving out expired tasks not swept yet', async () => {
      const a = task({ webhookUrl: 'https://example.com/h' });
      const b = task();
      const c = task({ taskType: 'FORUM' });
      const expired = task({ createdAt: T0 - 100_000 });
      await store.tasks.insert({ tasks: [a, b, c] });
      const claimed = await store.tasks.claim(claimArgs({ limit: 2 }));
      expect(claimed).toHaveLength(2);
      await store.tasks.insert({ tasks: [expired] });
      await store.tasks.finish({
        id: claimed[0]!.id,
        leaseToken: claimed[0]!.leaseToken,
        write: completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
        now: T0 + 2000,
      });
      await store.tasks.retry({
        id: claimed[1]!.id,
        leaseToken: claimed[1]!.leaseToken,
        error: 'x',
        availableAt: T0 + 5000,
        now: T0 + 2000,
      });
      const s = await store.figures.stats({ notBefore: T0 - 50_000 });
      expect(s.tasks).toEqual({ QUEUED: 2, PROCESSING: 0, COMPLETED: 1, FAILED: 0 });
      expect(s.byEngine).toEqual({
        ANSWER_ENGINE_A: { QUEUED: 1, PROCESSING: 0, COMPLETED: 1, FAILED: 0 },
        FORUM: { QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 },
      });
      expect(s.webhooks).toEqual({ pending: 1, delivered: 0, abandoned: 0 });
      expect((await store.figures.stats({ notBefore: 0 })).tasks.QUEUED).toBe(3);
      expect(await store.figures.queuedAndRunning({ notBefore: T0 - 50_000 })).toEqual({
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
      await store.tasks.deleteExpired({ before: T0 - 50_000, limit: 100 });
      expect((await store.figures.stats({ notBefore: 0 })).tasks.QUEUED).toBe(2);
    });

    it('claims again a delivery whose sender died, once its lease has expired, and fences the old sender', async () => {
      const t = task({ webhookUrl: 'https://example.com/h' });
      await store.tasks.insert({ tasks: [t] });
      const [c] = await store.tasks.claim(claimArgs());
      await store.tasks.finish({
        id: t.id,
        leaseToken: c!.leaseToken,
        write: completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
        now: T0 + 2000,
      });
      const [first] = await store.outbox.claimDue({ now: T0 + 2000, limit: 10, leaseMs: 1000 });
      expect(
        await store.outbox.startAttempt({ taskId: t.id, leaseToken: first!.leaseToken, attempt: 1, now: T0 + 2000 }),
      ).toBe(true);
      expect(await store.outbox.claimDue({ now: T0 + 2500, limit: 10, leaseMs: 1000 })).toHaveLength(0);
      const [again] = await store.outbox.claimDue({ now: T0 + 3500, limit: 10, leaseMs: 1000 });
      expect(again).toMatchObject({ taskId: t.id, attempts: 1 });
      expect(again!.leaseToken).not.toBe(first!.leaseToken);
      expect(
        await store.outbox.startAttempt({ taskId: t.id, leaseToken: first!.leaseToken, attempt: 2, now: T0 + 3500 }),
      ).toBe(false);
      expect(
        await store.outbox.startAttempt({ taskId: t.id, leaseToken: again!.leaseToken, attempt: 2, now: T0 + 3500 }),
      ).toBe(true);
    });

    it('finishes of one turn each keep their own fence; a task finished twice at once is finished once', async () => {
      const ts = [task(), task(), task()];
      await store.tasks.insert({ tasks: ts });
      const claimed = new Map((await store.tasks.claim(claimArgs())).map((c) => [c.id, c.leaseToken]));
      const tokenOf = (i: number) => claimed.get(ts[i]!.id)!;
      const results = await Promise.all(
        ts.map((t, i) =>
          store.tasks.finish({
            id: t.id,
            leaseToken: i === 1 ? 'stale' : tokenOf(i),
            write: completed(),
            now: T0 + 2000,
          }),
        ),
      );
      expect(results).toEqual([true, false, true]);
      expect((await store.tasks.get({ id: ts[0]!.id, notBefore: 0 }))?.result).toEqual({ text: 'ok' });
      expect((await store.tasks.get({ id: ts[1]!.id, notBefore: 0 }))?.status).toBe('PROCESSING');
      const twice = await Promise.all(
        [1, 2].map(() =>
          store.tasks.finish({ id: ts[1]!.id, leaseToken: tokenOf(1), write: completed(), now: T0 + 3000 }),
        ),
      );
      expect(twice.filter(Boolean)).toHaveLength(1);
      expect((await store.figures.stats({ notBefore: 0 })).tasks).toEqual({
        QUEUED: 0,
        PROCESSING: 0,
        COMPLETED: 3,
        FAILED: 0,
      });
    });

    it.skipIf(kind !== 'postgres')(
      'pool slots hold a resource to capacity under concurrent acquires, free it on release or expiry',
      async () => {
        const acquire = (capacity: number, now = T0, expires = T0 + 10_000) =>
          store.poolSlots!.acquire({ resourceId: 'exit-1', capacity, now, expiresAt: expires });
        const first = await Promise.all(Array.from({ length: 10 }, () => acquire(3)));
        const held = first.filter((t): t is string => t !== null);
        expect(held).toHaveLength(3);
        expect(await acquire(3)).toBeNull();
        await store.poolSlots!.release(held[0]!);
        expect(await acquire(3)).not.toBeNull();
        expect(await acquire(3)).toBeNull();
        // A raised capacity is usable at once; a lowered one admits nobody while it is exceeded.
        expect(await acquire(5)).not.toBeNull();
        expect(await acquire(5)).not.toBeNull();
        expect(await acquire(5)).toBeNull();
        expect(await acquire(2)).toBeNull();
        // Another resource is counted apart.
        expect(
          await store.poolSlots!.acquire({ resourceId: 'exit-2', capacity: 1, now: T0, expiresAt: T0 + 10_000 }),
        ).not.toBeNull();
        // Leases run out: at their expiry the whole capacity is free again.
        const later = await Promise.all(Array.from({ length: 8 }, () => acquire(5, T0 + 10_000, T0 + 20_000)));
        expect(later.filter((t) => t !== null)).toHaveLength(5);
      },
    );

    it.skipIf(kind !== 'postgres')(
      'pool slots asked for together over several resources: each to its capacity, as its slots grow',
      async () => {
        // One turn: on PostgreSQL one call for all of them, the slots of each resource made as needed.
        const asks = Array.from({ length: 300 }, (_, i) =>
          i % 3 === 0
            ? store.poolSlots!.acquire({ resourceId: 'exit-small', capacity: 40, now: T0, expiresAt: T0 + 10_000 })
            : store.poolSlots!.acquire({ resourceId: 'exit-large', capacity: 150, now: T0, expiresAt: T0 + 10_000 }),
        );
        const tokens = await Promise.all(asks);
        const granted = tokens.filter((t): t is string => t !== null);
        expect(tokens.filter((t, i) => t !== null && i % 3 === 0)).toHaveLength(40);
        expect(tokens.filter((t, i) => t !== null && i % 3 !== 0)).toHaveLength(150);
        expect(new Set(granted).size).toBe(granted.length);
        // Released together, they are free together.
        await Promise.all(granted.map((t) => store.poolSlots!.release(t)));
        const again = await Promise.all(
          Array.from({ length: 41 }, () =>
            store.poolSlots!.acquire({ resourceId: 'exit-small', capacity: 40, now: T0, expiresAt: T0 + 10_000 }),
          ),
        );
        expect(again.filter((t) => t !== null)).toHaveLength(40);
      },
    );

    it.skipIf(kind !== 'sqlite')(
      'writes of one event-loop turn commit together, and one that fails rolls back alone',
      async () => {
        const first = task();
        await store.tasks.insert({ tasks: [first] });
        const ok = task();
        const partner = task();
        const results = await Promise.allSettled([
          store.tasks.insert({ tasks: [ok] }),
          // Same primary key as `first`: the insert throws, and `partner` (same call) must not stay.
          store.tasks.insert({ tasks: [partner, { ...task(), id: first.id }] }),
        ]);
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
        expect(await store.tasks.get({ id: ok.id, notBefore: 0 })).toBeDefined();
        expect(await store.tasks.get({ id: partner.id, notBefore: 0 })).toBeUndefined();
        expect((await store.figures.stats({ notBefore: 0 })).tasks.QUEUED).toBe(2);
      },
    );

    it.skipIf(kind !== 'sqlite')(
      'reads of one turn are answered together once it ends, each with its own outcome',
      async () => {
        const a = task();
        await store.tasks.insert({ tasks: [a] });
        const answered: string[] = [];
        const polls = [a.id, randomUUID(), a.id].map((id, i) =>
          store.tasks.poll({ id, notBefore: 0 }).then((t) => answered.push(`${i}:${t?.status ?? 'none'}`)),
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
