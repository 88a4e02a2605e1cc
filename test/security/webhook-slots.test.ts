import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { fastConfig, startService, tempDir, type RunningService } from '../helpers/service.js';

/**
 * The webhook sender's 64 slots are shared between accounts: one account's receivers that accept and never answer
 * hold at most three quarters of them (a quarter while other accounts have deliveries due), so another account's
 * deliveries still go out at once rather than after the request timeout.
 */
const INTERNAL = 'internal-token-webhook-slots-0123';
const HOG_TASKS = 70;

describe("one account's hanging receivers do not hold every delivery slot", () => {
  let svc: RunningService;
  let hanging: Receiver;
  let answering: Receiver;
  const keys: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const as = (who: string, method: string, p: string, body?: unknown) =>
    svc.call(method, p, body, { authorization: `Bearer ${keys[who]}` });
  const db = () => {
    const store = svc.app.store;
    return store.db;
  };
  const deliveries = async (who: string, status?: string) => {
    let q = db()
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', ids[who] ?? '');
    if (status) q = q.where('status', '=', status);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const until = async (what: string, pred: () => Promise<boolean>, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await pred())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const hook = (who: string, url: string, n: number) =>
    as(who, 'POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `${who} ${n}` },
      webhook: { url },
    });

  beforeAll(async () => {
    hanging = await startReceiver(() => 'hang');
    answering = await startReceiver();
    svc = await startService({
      AEQ_CONFIG: fastConfig(tempDir()),
      AEQ_INTERNAL_TOKEN: INTERNAL,
      // Longer than the test: a held slot is freed only by the receiver closing.
      AEQ_WEBHOOK_TIMEOUT_MS: '120000',
    });
    const internal = { authorization: `Bearer ${INTERNAL}` };
    for (const name of ['hog', 'fair']) {
      const made = await svc.call('POST', '/internal/accounts', { name }, internal);
      expect(made.status).toBe(201);
      keys[name] = (await svc.call('POST', '/internal/keys', { account: name }, internal)).body.key;
      ids[name] = (await svc.app.store.accounts.byName(name))?.id ?? '';
    }
  });
  afterAll(async () => {
    // The held requests end with the receiver, so the sender's attempts end before the service stops.
    await hanging.close();
    await answering.close();
    await svc.stop();
  });

  it("holds at most 48 of the 64 slots for one account; another account's delivery goes out at once", async () => {
    for (let i = 0; i < HOG_TASKS; i++) expect((await hook('hog', `${hanging.url}/hog/${i}`, i)).status).toBe(202);
    await until('every hog task to finish', async () => (await deliveries('hog')) === HOG_TASKS);
    await until('48 hanging deliveries', async () => hanging.received.length >= 48);
    // A further claim round finds the account at its limit: the rest stay pending.
    await svc.app.webhooks?.runOnce();
    expect(await deliveries('hog', 'SENDING')).toBe(48);
    expect(await deliveries('hog', 'PENDING')).toBe(HOG_TASKS - 48);
    expect(hanging.received).toHaveLength(48);

    const started = Date.now();
    expect((await hook('fair', `${answering.url}/fair`, 0)).status).toBe(202);
    // Generous: without the share the delivery waits for a hanging one's 120 s timeout.
    await answering.waitUntil((all) => all.some((r) => r.path === '/fair'), 15_000, "fair's delivery");
    expect(Date.now() - started).toBeLessThan(15_000);
    await until("fair's delivery recorded", async () => (await deliveries('fair', 'DELIVERED')) === 1);
    expect(await deliveries('hog', 'SENDING')).toBe(48);
  });

  it('while several accounts have deliveries due, a claim gives each at most a quarter of the slots', async () => {
    // The service's sender stops (its hanging attempts end with their receiver's close later); the claim is
    // called on the store directly with the share the sender would ask for.
    const sender = svc.app.webhooks;
    const stopping = sender?.stop();
    for (let i = 0; i < 20; i++) expect((await hook('fair', `${answering.url}/fair/${i}`, i)).status).toBe(202);
    await until('every fair task to finish', async () => (await deliveries('fair')) === 21);
    expect(await deliveries('fair', 'PENDING')).toBe(20);
    const claimed = await svc.app.store.outbox.claimDue({
      now: Date.now(),
      limit: 64,
      leaseMs: 60_000,
      holder: null,
      share: {
        held: new Map([[ids.hog ?? '', 10]]),
        shared: 16,
        alone: 48,
      },
    });
    const count = (who: string) => claimed.filter((d) => d.accountId === ids[who]).length;
    // hog holds 10 (as told): 6 more; fair holds none: 16 of its 20.
    expect([count('hog'), count('fair')]).toEqual([6, 16]);
    // Alone, an account gets up to three quarters: fair's 4 left, with hog at its limit of 48.
    const rest = await svc.app.store.outbox.claimDue({
      now: Date.now(),
      limit: 64,
      leaseMs: 60_000,
      holder: null,
      share: {
        held: new Map([
          [ids.hog ?? '', 48],
          [ids.fair ?? '', 16],
        ]),
        shared: 16,
        alone: 48,
      },
    });
    expect(rest.map((d) => d.accountId)).toEqual(Array(4).fill(ids.fair));
    await hanging.close();
    await stopping;
  });
});
