import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeaders, startReceiver, type Receiver, type Received } from '../helpers/receiver.js';
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

/**
 * Per-account webhook secrets (Standard Webhooks' per-endpoint model): each account signs with a secret of its own,
 * made on first use and shown only to its keys, so no tenant holds a key that signs another tenant's deliveries; a
 * rotation signs with both secrets for 24 hours; AEQ_WEBHOOK_SECRET stays the default account's. Verified with the
 * `standardwebhooks` package over the exact bytes received.
 */
const INTERNAL = 'internal-token-webhook-secrets-0123';
const CONFIGURED = `whsec_${randomBytes(24).toString('base64')}`;
const DAY_MS = 24 * 3_600_000;

const verifies = (secret: string, r: Received): boolean => {
  try {
    new Webhook(secret).verify(r.raw, signatureHeaders(r));
    return true;
  } catch {
    return false;
  }
};

/**
 * The same check by hand, for deliveries made after the test moved its clock a day on: the library also refuses a
 * timestamp more than five minutes from the real time.
 */
const signedBy = (secret: string, r: Received): boolean => {
  const content = `${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.raw}`;
  const mac = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(content)
    .digest('base64');
  return String(r.headers['webhook-signature'] ?? '')
    .split(' ')
    .includes(`v1,${mac}`);
};

describe('each account signs with its own secret', () => {
  const clock = steppedClock();
  let svc: RunningService;
  let hooks: Receiver;
  const keys: Record<string, string> = {};
  const as = (who: string, method: string, p: string, body?: unknown) =>
    svc.call(method, p, body, who === 'default' ? {} : { authorization: `Bearer ${keys[who]}` });
  const secretOf = async (who: string) => {
    const r = await as(who, 'GET', '/v1/webhooks/secret');
    expect(r.status, who).toBe(200);
    return r.body;
  };
  /** Runs one task of `who` with a webhook to `/<tag>` and returns the request the receiver got. */
  const deliveryOf = async (who: string, tag: string): Promise<Received> => {
    const r = await as(who, 'POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `hook of ${who} ${tag}` },
      webhook: { url: `${hooks.url}/${tag}` },
    });
    expect(r.status).toBe(202);
    // The account's own key polls (another account's task is 404 to the default key).
    for (let i = 0; ; i++) {
      const view = await as(who, 'GET', `/v1/async/task/${r.body.task.id}`);
      if (['COMPLETED', 'FAILED'].includes(view.body.task?.status)) break;
      if (i > 400) throw new Error(`task of ${who} not terminal: ${JSON.stringify(view.body)}`);
      await new Promise((res) => setTimeout(res, 50));
    }
    await deliverDue(svc);
    const got = hooks.received.find((x) => x.path === `/${tag}`);
    if (!got) throw new Error(`no delivery for ${tag}`);
    return got;
  };

  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService(
      {
        AEQ_CONFIG: fastConfig(tempDir()),
        AEQ_INTERNAL_TOKEN: INTERNAL,
        AEQ_WEBHOOK_SECRET: CONFIGURED,
        AEQ_SECRETS_KEY: randomBytes(32).toString('base64url'),
      },
      { clock },
    );
    const internal = { authorization: `Bearer ${INTERNAL}` };
    for (const name of ['acme', 'globex', 'initech']) {
      expect((await svc.call('POST', '/internal/accounts', { name }, internal)).status).toBe(201);
      keys[name] = (await svc.call('POST', '/internal/keys', { account: name }, internal)).body.key;
    }
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it('shows each account its own secret, made on first use, and the default account AEQ_WEBHOOK_SECRET', async () => {
    const acme = await secretOf('acme');
    expect(acme).toMatchObject({ success: true, source: 'account', previous: null });
    expect(acme.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(acme.secret.slice(6), 'base64')).toHaveLength(32);
    expect(Date.parse(acme.createdAt)).toBe(clock.now());
    // Made once: read again, the same.
    expect((await secretOf('acme')).secret).toBe(acme.secret);
    const globex = await secretOf('globex');
    expect(globex.secret).not.toBe(acme.secret);
    expect(await secretOf('default')).toMatchObject({ secret: CONFIGURED, source: 'configured', createdAt: null });
    const anonymous = await svc.raw('GET', '/v1/webhooks/secret');
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(anonymous.body)).not.toContain('whsec_');
  });

  it("an account's delivery verifies with its secret and with no other account's", async () => {
    const secrets = {
      acme: (await secretOf('acme')).secret as string,
      globex: (await secretOf('globex')).secret as string,
      default: CONFIGURED,
    };
    for (const who of Object.keys(secrets) as Array<keyof typeof secrets>) {
      const r = await deliveryOf(who, `own-${who}`);
      // One signature: the account's only secret.
      expect(r.headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
      for (const [other, secret] of Object.entries(secrets))
        expect(verifies(secret, r), `${who}'s delivery with ${other}'s secret`).toBe(other === who);
    }
  });

  it('a delivery makes the secret of an account that never asked for it, and GET shows that one', async () => {
    const r = await deliveryOf('initech', 'first-use');
    expect(r.headers['webhook-signature']).toMatch(/^v1,/);
    const { secret } = await secretOf('initech');
    expect(verifies(secret, r)).toBe(true);
  });

  it('keeps secrets sealed in the store', async () => {
    const store = svc.app.store;
    const rows = await store.db.selectFrom('webhook_secrets').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const shown = [(await secretOf('acme')).secret, (await secretOf('globex')).secret] as string[];
    for (const row of rows) {
      expect(row.secret).toMatch(/^v1\./);
      for (const s of shown) expect(row.secret).not.toContain(s.slice(6, 20));
    }
    // The configured secret of the default account is not copied into the store.
    expect(rows.some((r) => r.account_id === 'default')).toBe(false);
  });

  it('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const old = (await secretOf('acme')).secret as string;
    const rotated = await as('acme', 'POST', '/v1/webhooks/secret/rotate');
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.body.previous).toEqual({ secret: old, expiresAt: new Date(clock.now() + DAY_MS).toISOString() });
    expect(await secretOf('acme')).toMatchObject({ secret: fresh, previous: { secret: old } });
    // globex's secret is untouched.
    const globex = (await secretOf('globex')).secret as string;

    const during = await deliveryOf('acme', 'during-rotation');
    expect(during.headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
    expect(verifies(fresh, during)).toBe(true);
    expect(verifies(old, during)).toBe(true);
    expect(verifies(globex, during)).toBe(false);
    expect([signedBy(fresh, during), signedBy(old, during), signedBy(globex, during)]).toEqual([true, true, false]);

    clock.advance(DAY_MS - 1000);
    const last = await deliveryOf('acme', 'rotation-last-second');
    expect([signedBy(fresh, last), signedBy(old, last)]).toEqual([true, true]);
    clock.advance(1000);
    const after = await deliveryOf('acme', 'after-rotation');
    expect(after.headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
    expect([signedBy(fresh, after), signedBy(old, after)]).toEqual([true, false]);
    expect((await secretOf('acme')).previous).toBeNull();
  });

  it("the default account's configured secrets are rotated by the operator, not through the API", async () => {
    const r = await as('default', 'POST', '/v1/webhooks/secret/rotate');
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('WEBHOOK_SECRET_CONFIGURED');
    expect(JSON.stringify(r.body)).not.toContain(CONFIGURED);
  });
});

describe('without AEQ_WEBHOOK_SECRET the default account gets a secret of its own too', () => {
  let svc: RunningService;
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()) });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it('signs every delivery; rotation works for it', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'default hook' },
      webhook: { url: `${hooks.url}/default` },
    });
    await waitTerminal(svc, id);
    await deliverDue(svc);
    const [r] = hooks.received;
    if (!r) throw new Error('no delivery');
    const shown = await svc.call('GET', '/v1/webhooks/secret');
    expect(shown.body.source).toBe('account');
    expect(verifies(shown.body.secret, r)).toBe(true);
    const rotated = await svc.call('POST', '/v1/webhooks/secret/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.previous.secret).toBe(shown.body.secret);
  });
});

describe('a secret that cannot be opened is never replaced by no signature', () => {
  let hooks: Receiver;
  const dataDir = tempDir();
  const config = fastConfig(tempDir());
  const clock = steppedClock();
  const start = (secretsKey: string) =>
    startService({ AEQ_CONFIG: config, AEQ_DATA_DIR: dataDir, AEQ_SECRETS_KEY: secretsKey }, { clock });
  beforeAll(async () => {
    hooks = await startReceiver();
  });
  afterAll(() => hooks.close());

  it('after the secrets key changed, deliveries wait (retried) until the account rotates its secret', async () => {
    const first = await start(randomBytes(32).toString('base64url'));
    const sealedUnderOld = (await first.call('GET', '/v1/webhooks/secret')).body.secret as string;
    await first.stop();

    const svc = await start(randomBytes(32).toString('base64url'));
    try {
      const unreadable = await svc.call('GET', '/v1/webhooks/secret');
      expect(unreadable.status).toBe(409);
      expect(unreadable.body.error.code).toBe('WEBHOOK_SECRET_UNREADABLE');
      const id = await submit(svc, {
        taskType: 'ANSWER_ENGINE_A',
        payload: { prompt: 'hook under a changed key' },
        webhook: { url: `${hooks.url}/changed-key` },
      });
      await waitTerminal(svc, id);
      await deliverDue(svc);
      expect(hooks.received.filter((r) => r.path === '/changed-key')).toHaveLength(0);
      const log = (await svc.call('GET', `/v1/async/task/${id}/deliveries`)).body.webhook;
      expect(log).toMatchObject({
        status: 'pending',
        attempts: [{ attempt: 1, outcome: 'retry', errorCode: 'SIGNING_SECRET_UNAVAILABLE', httpStatus: null }],
      });

      // A rotation gives the account a secret this key opens; the next attempt is signed with it alone.
      const rotated = await svc.call('POST', '/v1/webhooks/secret/rotate');
      expect(rotated.status).toBe(200);
      expect(rotated.body.previous).toBeNull();
      expect(rotated.body.secret).not.toBe(sealedUnderOld);
      clock.advance(120_000);
      await deliverDue(svc);
      const [got] = hooks.received.filter((r) => r.path === '/changed-key');
      if (!got) throw new Error('the retry was not delivered');
      expect(got.headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
      expect(signedBy(rotated.body.secret, got)).toBe(true);
      expect((await svc.call('GET', `/v1/async/task/${id}/deliveries`)).body.webhook.status).toBe('delivered');
    } finally {
      await svc.stop();
    }
  });
});
