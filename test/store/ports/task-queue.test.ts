import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { newTaskId } from '../../../src/domain/task-id.js';
import type { TaskRecord } from '../../../src/domain/task.js';
import type { TerminalWrite } from '../../../src/store/ports.js';
import { claimArgs, completed, forEachStore, T0, task } from './driver.js';

/**
 * TaskQueue (src/store/ports.ts): submit, claim, heartbeat, finish, retry, reap and expiry. Every write that moves a
 * task goes through the lease fence: QUEUED -> PROCESSING -> COMPLETED | FAILED, terminal states final.
 */
forEachStore('the task queue', (s) => {
  it('a duplicate idempotency key is refused with the existing id, also under concurrency', async () => {
    const first = task({ idempotencyKey: 'k1' });
    const [a] = await s.store.tasks.insert({ tasks: [first] });
    expect(a?.ok).toBe(true);
    const [b] = await s.store.tasks.insert({ tasks: [task({ idempotencyKey: 'k1' })] });
    expect(b).toEqual({ ok: false, reason: 'DUPLICATE_KEY', existingId: first.id });
    const racers = await Promise.all(
      Array.from({ length: 20 }, () => s.store.tasks.insert({ tasks: [task({ idempotencyKey: 'race' })] })),
    );
    expect(racers.filter(([o]) => o?.ok).length).toBe(1);
  });

  it('frees the key of an expired task that is not swept yet', async () => {
    const old = task({ idempotencyKey: 'k-old', createdAt: T0 - 100_000 });
    await s.store.tasks.insert({ tasks: [old] });
    const [same] = await s.store.tasks.insert({ tasks: [task({ idempotencyKey: 'k-old' })], notBefore: T0 - 200_000 });
    expect(same).toEqual({ ok: false, reason: 'DUPLICATE_KEY', existingId: old.id });
    const fresh = task({ idempotencyKey: 'k-old' });
    const [taken] = await s.store.tasks.insert({ tasks: [fresh], notBefore: T0 - 50_000 });
    expect(taken?.ok).toBe(true);
    expect(await s.store.tasks.get({ id: old.id, notBefore: 0 })).toBeUndefined();
  });

  it('a claimed task carries what an attempt reads, and the lease the claim wrote', async () => {
    const t = task({
      payload: { prompt: 'p', nested: { k: [1, 'two'] } },
      priority: 4,
      idempotencyKey: 'claim-fields',
      webhookUrl: 'https://example.com/hook',
      country: 'DE',
      maxAttempts: 5,
      creditsToCharge: 7,
      accountId: 'acct-claim',
    });
    await s.store.tasks.insert({ tasks: [t] });
    const args = claimArgs();
    const [c] = await s.store.tasks.claim(args);
    const { batch: _batch, availableAt: _due, ...asked } = t;
    expect(c).toEqual({
      ...asked,
      attempts: 1,
      leaseToken: expect.any(String),
      leaseExpiresAt: args.now + args.leaseMs,
    });
    // The token is the one the store holds: it fences the finish.
    expect(await s.store.tasks.finish({ id: t.id, leaseToken: c!.leaseToken, write: completed(), now: T0 + 1 })).toBe(
      true,
    );
  });

  it('claims no more than the engine concurrency, counting tasks already running', async () => {
    await s.store.tasks.insert({ tasks: Array.from({ length: 5 }, () => task()) });
    expect(await s.store.tasks.claim(claimArgs({ concurrency: 2 }))).toHaveLength(2);
    expect(await s.store.tasks.claim(claimArgs({ concurrency: 2, workerId: 'w2' }))).toHaveLength(0);
    expect(await s.store.tasks.claim(claimArgs({ concurrency: 3, workerId: 'w2' }))).toHaveLength(1);
  });

  it('a claim given back puts its own tasks back as they were, and nothing else', async () => {
    const held = task({ createdAt: T0 });
    const given = [task({ createdAt: T0 + 1 }), task({ createdAt: T0 + 2 })];
    await s.store.tasks.insert({ tasks: [held, ...given] });
    const [kept] = await s.store.tasks.claim(claimArgs({ limit: 1, workerId: 'w2' }));
    expect(kept?.id).toBe(held.id);
    const claimed = await s.store.tasks.claim(claimArgs({ leaseToken: 'claim-that-failed' }));
    expect(claimed.map((t) => [t.id, t.leaseToken])).toEqual(given.map((t) => [t.id, 'claim-that-failed']));
    expect(await s.store.tasks.abandonClaim({ leaseToken: 'claim-that-failed', now: T0 + 2000 })).toBe(2);
    // Back in the queue with their attempt taken back: the next claim finds them, at attempt 1 again.
    const again = await s.store.tasks.claim(claimArgs({ concurrency: 3 }));
    expect(again.map((t) => [t.id, t.attempts])).toEqual(given.map((t) => [t.id, 1]));
    // The other claim's task is untouched, and a token no claim holds any more gives nothing back.
    expect(await s.store.tasks.abandonClaim({ leaseToken: 'claim-that-failed', now: T0 + 3000 })).toBe(0);
    const done = { id: held.id, leaseToken: kept!.leaseToken, write: completed(), now: T0 + 4000 };
    expect(await s.store.tasks.finish(done)).toBe(true);
  });

  it('serves higher priority first, and ageing lets an old low-priority task overtake', async () => {
    const low = task({ priority: 1, createdAt: T0 });
    const high = task({ priority: 5, createdAt: T0 + 1 });
    await s.store.tasks.insert({ tasks: [low, high] });
    const [first] = await s.store.tasks.claim(claimArgs({ limit: 1 }));
    expect(first?.id).toBe(high.id);

    const old = task({ priority: 1, createdAt: T0 - 10 * 60_000 });
    const fresh = task({ priority: 5, createdAt: T0 });
    await s.store.tasks.insert({ tasks: [fresh, old] });
    const claimed = await s.store.tasks.claim(claimArgs({ limit: 2, workerId: 'w3' }));
    // sort keys: old = T0-660s, fresh (priority 5) = T0-300s, low = T0-60s.
    expect(claimed.map((t) => t.id)).toEqual([old.id, fresh.id]);
  });

  it('does not claim a task before it is due', async () => {
    const t = task();
    await s.store.tasks.insert({ tasks: [t] });
    const [c] = await s.store.tasks.claim(claimArgs());
    expect(
      await s.store.tasks.retry({
        id: t.id,
        leaseToken: c!.leaseToken,
        error: 'ENGINE_FAILED: x',
        availableAt: T0 + 60_000,
        now: T0 + 1000,
      }),
    ).toBe(true);
    expect(await s.store.tasks.claim(claimArgs({ now: T0 + 59_000 }))).toHaveLength(0);
    const [again] = await s.store.tasks.claim(claimArgs({ now: T0 + 60_000 }));
    expect(again?.attempts).toBe(2);
  });

  it('only the lease holder can finish, and a terminal task never changes again', async () => {
    const t = task({ webhookUrl: 'https://example.com/hook' });
    await s.store.tasks.insert({ tasks: [t] });
    const [c] = await s.store.tasks.claim(claimArgs());
    expect((await s.store.tasks.get({ id: t.id, notBefore: 0 }))?.status).toBe('PROCESSING');
    expect(
      await s.store.tasks.finish({ id: t.id, leaseToken: 'not-the-token', write: completed(), now: T0 + 2000 }),
    ).toBe(false);
    expect(
      await s.store.tasks.finish({
        id: t.id,
        leaseToken: c!.leaseToken,
        write: completed({ url: 'https://example.com/hook', payload: { a: 1 }, accountId: 'default' }),
        now: T0 + 2000,
      }),
    ).toBe(true);
    expect(
      await s.store.tasks.finish({
        id: t.id,
        leaseToken: c!.leaseToken,
        write: { ...completed(), status: 'FAILED', error: 'x', creditsCharged: 0 },
        now: T0 + 3000,
      }),
    ).toBe(false);
    expect(
      await s.store.tasks.retry({ id: t.id, leaseToken: c!.leaseToken, error: 'x', availableAt: T0, now: T0 + 3000 }),
    ).toBe(false);
    const got = (await s.store.tasks.get({ id: t.id, notBefore: 0 })) as TaskRecord;
    expect(got.status).toBe('COMPLETED');
    expect(got.result).toEqual({ text: 'ok' });
    expect(got.creditsCharged).toBe(2);
    // The poll's read shows the same fields as the whole record, without the payload, and the result as the stored
    // JSON text.
    const polled = await s.store.tasks.poll({ id: t.id, notBefore: 0 });
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
    const due = await s.store.outbox.claimDue({ now: T0 + 2000, limit: 10, leaseMs: 60_000 });
    expect(due.map((d) => d.taskId)).toEqual([t.id]);
    expect(JSON.parse(due[0]!.payload)).toEqual({ a: 1 });
  });

  it('returns tasks of a dead worker to the queue, and the stale holder cannot finish them', async () => {
    const t = task();
    await s.store.tasks.insert({ tasks: [t] });
    const [c] = await s.store.tasks.claim(claimArgs({ leaseMs: 1000 }));
    const fail = (): TerminalWrite => ({
      ...completed(),
      status: 'FAILED',
      error: 'ENGINE_TIMEOUT: x',
      creditsCharged: 0,
    });
    expect(await s.store.tasks.reapExpired({ now: T0 + 1500, failedWrite: fail })).toEqual({
      requeued: [],
      failed: [],
    });
    expect(await s.store.tasks.reapExpired({ now: T0 + 2001, failedWrite: fail })).toEqual({
      requeued: [t.id],
      failed: [],
    });
    expect(
      await s.store.tasks.finish({ id: t.id, leaseToken: c!.leaseToken, write: completed(), now: T0 + 2100 }),
    ).toBe(false);
    const [c2] = await s.store.tasks.claim(claimArgs({ now: T0 + 2200, workerId: 'w2' }));
    expect(c2?.id).toBe(t.id);
    // Every write of the stale holder is fenced off while the new holder has the task.
    expect(
      await s.store.tasks.heartbeat({ leases: [{ id: t.id, leaseToken: c!.leaseToken }], expiresAt: T0 + 60_000 }),
    ).toBe(0);
    expect(
      await s.store.tasks.retry({
        id: t.id,
        leaseToken: c!.leaseToken,
        error: 'x',
        availableAt: T0 + 2250,
        now: T0 + 2250,
      }),
    ).toBe(false);
    expect(
      await s.store.tasks.finish({ id: t.id, leaseToken: c!.leaseToken, write: completed(), now: T0 + 2250 }),
    ).toBe(false);
    expect(
      await s.store.tasks.finish({ id: t.id, leaseToken: c2!.leaseToken, write: completed(), now: T0 + 2300 }),
    ).toBe(true);
  });

  it('hands back hundreds of expired leases at once, each under its own fence, and no lease still held', async () => {
    // More than one statement's worth of requeues (store/tasks/reap.ts), 10 on their last attempt, 5 heartbeated.
    const last = Array.from({ length: 10 }, () => task({ maxAttempts: 1 }));
    const rest = Array.from({ length: 440 }, () => task());
    await s.store.tasks.insert({ tasks: [...last, ...rest] });
    const claimed = await s.store.tasks.claim(claimArgs({ limit: 450, concurrency: 450, leaseMs: 1000 }));
    expect(claimed).toHaveLength(450);
    const kept = claimed.filter((c) => rest.some((t) => t.id === c.id)).slice(0, 5);
    expect(
      await s.store.tasks.heartbeat({
        leases: kept.map((c) => ({ id: c.id, leaseToken: c.leaseToken })),
        expiresAt: T0 + 60_000,
      }),
    ).toBe(5);
    const fail = (): TerminalWrite => ({
      ...completed(),
      status: 'FAILED',
      error: 'ENGINE_TIMEOUT: x',
      creditsCharged: 0,
    });
    const r = await s.store.tasks.reapExpired({ now: T0 + 2001, failedWrite: fail });
    const keptIds = new Set(kept.map((c) => c.id));
    expect(new Set(r.requeued)).toEqual(new Set(rest.map((t) => t.id).filter((id) => !keptIds.has(id))));
    expect(r.requeued).toHaveLength(435);
    expect(new Set(r.failed)).toEqual(new Set(last.map((t) => t.id)));
    const st = await s.store.figures.stats({ notBefore: 0 });
    expect(st.tasks).toMatchObject({ QUEUED: 435, PROCESSING: 5, FAILED: 10 });
    // The stale holders are fenced off; the heartbeated ones still hold theirs.
    const requeuedClaim = claimed.find((c) => !keptIds.has(c.id) && rest.some((t) => t.id === c.id))!;
    expect(
      await s.store.tasks.finish({
        id: requeuedClaim.id,
        leaseToken: requeuedClaim.leaseToken,
        write: completed(),
        now: T0 + 2100,
      }),
    ).toBe(false);
    expect(
      await s.store.tasks.finish({
        id: kept[0]!.id,
        leaseToken: kept[0]!.leaseToken,
        write: completed(),
        now: T0 + 2100,
      }),
    ).toBe(true);
    // A second pass finds nothing more.
    expect(await s.store.tasks.reapExpired({ now: T0 + 2500, failedWrite: fail })).toEqual({
      requeued: [],
      failed: [],
    });
  });

  it('fails a task whose lease expires on its last attempt, writing its webhook', async () => {
    const t = task({ maxAttempts: 1, webhookUrl: 'https://example.com/h' });
    await s.store.tasks.insert({ tasks: [t] });
    await s.store.tasks.claim(claimArgs({ leaseMs: 1000 }));
    const r = await s.store.tasks.reapExpired({
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
    expect((await s.store.tasks.get({ id: t.id, notBefore: 0 }))?.status).toBe('FAILED');
    expect(await s.store.outbox.claimDue({ now: T0 + 5000, limit: 10, leaseMs: 60_000 })).toHaveLength(1);
  });

  it('heartbeats extend only leases still held', async () => {
    const t = task();
    await s.store.tasks.insert({ tasks: [t] });
    const [c] = await s.store.tasks.claim(claimArgs({ leaseMs: 1000 }));
    expect(
      await s.store.tasks.heartbeat({
        leases: [
          { id: t.id, leaseToken: c!.leaseToken },
          { id: t.id, leaseToken: 'stale' },
        ],
        expiresAt: T0 + 10_000,
      }),
    ).toBe(1);
    const fail = (): TerminalWrite => ({ ...completed(), status: 'FAILED', error: 'x', creditsCharged: 0 });
    expect((await s.store.tasks.reapExpired({ now: T0 + 5000, failedWrite: fail })).requeued).toEqual([]);
  });

  it('expires tasks: hidden after the retention window, then deleted with their deliveries', async () => {
    const old = task({ createdAt: T0 - 100_000, webhookUrl: 'https://example.com/h' });
    const fresh = task({ createdAt: T0 });
    await s.store.tasks.insert({ tasks: [old, fresh] });
    expect(await s.store.tasks.get({ id: old.id, notBefore: T0 - 50_000 })).toBeUndefined();
    expect(await s.store.tasks.get({ id: fresh.id, notBefore: T0 - 50_000 })).toBeDefined();
    expect(await s.store.tasks.poll({ id: old.id, notBefore: T0 - 50_000 })).toBeUndefined();
    expect(await s.store.tasks.poll({ id: fresh.id, notBefore: T0 - 50_000 })).toMatchObject({
      id: fresh.id,
      status: 'QUEUED',
      resultJson: null,
      creditsCharged: null,
    });
    expect(await s.store.tasks.deleteExpired({ before: T0 - 50_000, limit: 100 })).toBe(1);
    expect(await s.store.tasks.get({ id: old.id, notBefore: 0 })).toBeUndefined();
    const st = await s.store.figures.stats({ notBefore: 0 });
    expect(st.tasks).toEqual({ QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 });
  });

  it('sweeps every task created before the bound, whatever its id, and none created at or after it', async () => {
    const before = T0 - 50_000;
    const swept = [
      // A random (version 4) id, as the releases before time-ordered ids made them.
      task({ id: randomUUID(), createdAt: before - 10_000 }),
      // An id whose time ran ahead of its creation (a burst of ids in one millisecond).
      task({ id: newTaskId(before + 500), createdAt: before - 1 }),
      task({ createdAt: before - 1 }),
    ];
    const kept = [
      task({ createdAt: before }),
      task({ createdAt: before + 10 }),
      task({ id: randomUUID(), createdAt: before }),
    ];
    await s.store.tasks.insert({ tasks: [...kept, ...swept] });
    expect(await s.store.tasks.deleteExpired({ before, limit: 100 })).toBe(3);
    for (const t of swept) expect(await s.store.tasks.get({ id: t.id, notBefore: 0 })).toBeUndefined();
    for (const t of kept) expect(await s.store.tasks.get({ id: t.id, notBefore: 0 })).toBeDefined();
    // At most `limit` a pass, the time-ordered ids first.
    await s.store.tasks.insert({
      tasks: [task({ createdAt: before - 5 }), task({ id: randomUUID(), createdAt: before - 5 })],
    });
    expect(await s.store.tasks.deleteExpired({ before, limit: 1 })).toBe(1);
    expect(await s.store.tasks.deleteExpired({ before, limit: 1 })).toBe(1);
    expect(await s.store.tasks.deleteExpired({ before, limit: 1 })).toBe(0);
  });

  it('finishes of one turn each keep their own fence; a task finished twice at once is finished once', async () => {
    const ts = [task(), task(), task()];
    await s.store.tasks.insert({ tasks: ts });
    const claimed = new Map((await s.store.tasks.claim(claimArgs())).map((c) => [c.id, c.leaseToken]));
    const tokenOf = (i: number) => claimed.get(ts[i]!.id)!;
    const results = await Promise.all(
      ts.map((t, i) =>
        s.store.tasks.finish({
          id: t.id,
          leaseToken: i === 1 ? 'stale' : tokenOf(i),
          write: completed(),
          now: T0 + 2000,
        }),
      ),
    );
    expect(results).toEqual([true, false, true]);
    expect((await s.store.tasks.get({ id: ts[0]!.id, notBefore: 0 }))?.result).toEqual({ text: 'ok' });
    expect((await s.store.tasks.get({ id: ts[1]!.id, notBefore: 0 }))?.status).toBe('PROCESSING');
    const twice = await Promise.all(
      [1, 2].map(() =>
        s.store.tasks.finish({ id: ts[1]!.id, leaseToken: tokenOf(1), write: completed(), now: T0 + 3000 }),
      ),
    );
    expect(twice.filter(Boolean)).toHaveLength(1);
    expect((await s.store.figures.stats({ notBefore: 0 })).tasks).toEqual({
      QUEUED: 0,
      PROCESSING: 0,
      COMPLETED: 3,
      FAILED: 0,
    });
  });
});
