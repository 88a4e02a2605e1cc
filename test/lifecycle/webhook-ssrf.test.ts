import dns from 'node:dns/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliverDue,
  fastConfig,
  startService,
  steppedClock,
  submit,
  tempDir,
  waitTerminal,
  type RunningService,
} from '../helpers/service.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { deliveryAttempts, deliveryRow } from '../helpers/store-inspect.js';

/** What the outbox records of a target that is private or does not resolve, whichever it is. */
const REFUSED = 'undeliverable: PRIVATE_ADDRESS: target is not a public address that resolves';

/** The default retry base: the clock is stepped through the schedule. */
const BASE_MS = 120_000;

describe('webhook targets on private addresses are refused (AEQ_WEBHOOK_ALLOW_PRIVATE=0)', () => {
  const clock = steppedClock();
  let svc: RunningService;
  let hooks: Receiver;
  let port: string;
  /** A host name (not `localhost`) that resolves to a loopback address here, to exercise the check after resolution. */
  let loopbackName: string | null = null;
  beforeAll(async () => {
    hooks = await startReceiver();
    port = new URL(hooks.url).port;
    const addrs = await dns.lookup(os.hostname(), { all: true }).catch(() => []);
    if (addrs.length > 0 && addrs.every((a) => a.address.startsWith('127.') || a.address === '::1'))
      loopbackName = os.hostname();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_ALLOW_PRIVATE: '0' }, { clock });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  const targets = () => [
    ['the loopback address', `http://127.0.0.1:${port}/hook`],
    ['localhost', `http://localhost:${port}/hook`],
    ['a short IPv4 form', `http://127.1:${port}/hook`],
    ['IPv6 loopback', `http://[::1]:${port}/hook`],
    ['IPv4-mapped IPv6 loopback', `http://[::ffff:127.0.0.1]:${port}/hook`],
    ['the unspecified address', `http://0.0.0.0:${port}/hook`],
    ['a private network address', 'http://10.1.2.3/hook'],
    ['the link-local metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ...(loopbackName
      ? [[`the host name ${loopbackName}, which resolves to loopback`, `http://${loopbackName}:${port}/hook`]]
      : []),
  ];

  it('each is refused at every attempt, undeliverable at the end, never reaching the receiver', async () => {
    const ids = await Promise.all(
      targets().map(async ([label, url]) => {
        const id = await submit(svc, {
          taskType: 'ANSWER_ENGINE_A',
          payload: { prompt: `ssrf ${label}` },
          webhook: { url },
        });
        return [label, id] as const;
      }),
    );
    for (const [label, id] of ids) {
      const view = await waitTerminal(svc, id);
      // The engine work is unaffected: status describes the task, not its notification.
      expect(view.task.status, label).toBe('COMPLETED');
    }
    // The first attempt, then each retry when it is due (2, 4, 8, 16 minutes).
    await deliverDue(svc);
    for (let n = 1; n <= 4; n++) {
      clock.advance(BASE_MS * 2 ** (n - 1));
      await deliverDue(svc);
    }
    for (const [label, id] of ids) {
      const row = await deliveryRow(svc, id);
      expect(row?.status, label).toBe('ABANDONED');
      // One sentence for every refused target: nothing says which address, or whether the name exists.
      expect(row?.last_error, label).toBe(REFUSED);
      const attempts = await deliveryAttempts(svc, id);
      expect(
        attempts.map((a) => a.outcome),
        label,
      ).toEqual(['retry', 'retry', 'retry', 'retry', 'abandoned']);
      const log = await svc.call('GET', `/v1/async/task/${id}/deliveries`);
      expect(log.body.webhook, label).toMatchObject({ status: 'abandoned', nextAttemptAt: null });
      expect(
        log.body.webhook.attempts.map((a: { outcome: string }) => a.outcome),
        label,
      ).toEqual(['retry', 'retry', 'retry', 'retry', 'undeliverable']);
      for (const a of log.body.webhook.attempts) {
        expect(a.errorCode, label).toBe('PRIVATE_ADDRESS');
        expect(a.httpStatus, label).toBeNull();
      }
    }
    expect(hooks.received).toHaveLength(0);
  });

  it('a host name that does not resolve is recorded as a refused one, and retried (it may resolve later)', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'unresolvable hook' },
      webhook: { url: 'http://no-such-host.invalid/hook' },
    });
    await waitTerminal(svc, id);
    await deliverDue(svc);
    const log = (await svc.call('GET', `/v1/async/task/${id}/deliveries`)).body.webhook;
    expect(log).toMatchObject({
      targetHost: 'no-such-host.invalid',
      status: 'pending',
      attempts: [{ attempt: 1, outcome: 'retry', errorCode: 'PRIVATE_ADDRESS', httpStatus: null }],
    });
    expect(log.nextAttemptAt).not.toBeNull();
    // Recorded as a refused private name is: the log does not tell a tenant whether a private host name exists.
    expect((await deliveryRow(svc, id))?.last_error).toBe(REFUSED);
    for (let n = 1; n <= 4; n++) {
      clock.advance(BASE_MS * 2 ** (n - 1));
      await deliverDue(svc);
    }
    expect((await svc.call('GET', `/v1/async/task/${id}/deliveries`)).body.webhook.status).toBe('abandoned');
  });

  it('/stats counts them as abandoned', async () => {
    const r = await svc.call('GET', '/stats');
    expect(r.body.webhooks.abandoned).toBeGreaterThanOrEqual(targets().length);
  });
});
