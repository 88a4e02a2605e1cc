import { expect, it } from 'vitest';
import { claimArgs, completed, forEachStore, T0, task } from './driver.js';

/** Outbox (src/store/ports.ts): deliveries written with the terminal state, claimed under a lease, attempted once. */
forEachStore('the webhook outbox', (s) => {
  it('makes each webhook attempt number at most once', async () => {
    const t = task({ webhookUrl: 'https://example.com/h' });
    await s.store.tasks.insert({ tasks: [t] });
    const [c] = await s.store.tasks.claim(claimArgs());
    await s.store.tasks.finish({
      id: t.id,
      leaseToken: c!.leaseToken,
      write: completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
      now: T0 + 2000,
    });
    const [d] = await s.store.outbox.claimDue({ now: T0 + 2000, limit: 10, leaseMs: 60_000 });
    expect(
      await s.store.outbox.startAttempt({ taskId: t.id, leaseToken: d!.leaseToken, attempt: 1, now: T0 + 2000 }),
    ).toBe(true);
    expect(
      await s.store.outbox.startAttempt({ taskId: t.id, leaseToken: d!.leaseToken, attempt: 1, now: T0 + 2000 }),
    ).toBe(false);
    await s.store.outbox.finishAttempt({
      taskId: t.id,
      leaseToken: d!.leaseToken,
      attempt: 1,
      outcome: { kind: 'retry', at: T0 + 10_000, error: 'HTTP 500', httpStatus: 500 },
      now: T0 + 2100,
    });
    expect(await s.store.outbox.claimDue({ now: T0 + 9000, limit: 10, leaseMs: 60_000 })).toHaveLength(0);
    const [d2] = await s.store.outbox.claimDue({ now: T0 + 10_000, limit: 10, leaseMs: 60_000 });
    expect(d2?.attempts).toBe(1);
    expect(
      await s.store.outbox.startAttempt({ taskId: t.id, leaseToken: d2!.leaseToken, attempt: 2, now: T0 + 10_000 }),
    ).toBe(true);
  });

  it('claims again a delivery whose sender died, once its lease has expired, and fences the old sender', async () => {
    const t = task({ webhookUrl: 'https://example.com/h' });
    await s.store.tasks.insert({ tasks: [t] });
    const [c] = await s.store.tasks.claim(claimArgs());
    await s.store.tasks.finish({
      id: t.id,
      leaseToken: c!.leaseToken,
      write: completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
      now: T0 + 2000,
    });
    const [first] = await s.store.outbox.claimDue({ now: T0 + 2000, limit: 10, leaseMs: 1000 });
    expect(
      await s.store.outbox.startAttempt({ taskId: t.id, leaseToken: first!.leaseToken, attempt: 1, now: T0 + 2000 }),
    ).toBe(true);
    expect(await s.store.outbox.claimDue({ now: T0 + 2500, limit: 10, leaseMs: 1000 })).toHaveLength(0);
    const [again] = await s.store.outbox.claimDue({ now: T0 + 3500, limit: 10, leaseMs: 1000 });
    expect(again).toMatchObject({ taskId: t.id, attempts: 1 });
    expect(again!.leaseToken).not.toBe(first!.leaseToken);
    expect(
      await s.store.outbox.startAttempt({ taskId: t.id, leaseToken: first!.leaseToken, attempt: 2, now: T0 + 3500 }),
    ).toBe(false);
    expect(
      await s.store.outbox.startAttempt({ taskId: t.id, leaseToken: again!.leaseToken, attempt: 2, now: T0 + 3500 }),
    ).toBe(true);
  });
});
