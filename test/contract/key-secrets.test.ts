import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import {
  TEST_KEY,
  fastConfig,
  startService,
  tempDir,
  type CallResult,
  type RunningService,
} from '../helpers/service.js';

const INTERNAL = `internal-${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/**
 * A whole lifecycle with several accounts and keys (made, used, listed, expired, revoked, refused), tasks, a batch with
 * its webhook, delivery logs, usage and stats; then every log line, every API answer (but the one that creates a
 * key) and every webhook delivery is searched for any full key, a key's hash, the configured key, the internal token
 * and the webhook secret.
 */
describe('no key or secret in logs or answers', () => {
  let svc: RunningService;
  let hooks: Receiver;
  const logLines: string[] = [];
  const answers: Array<[what: string, text: string]> = [];
  const keys: string[] = [];
  const record = (what: string, r: CallResult) => {
    answers.push([what, `${JSON.stringify(Object.fromEntries(r.headers.entries()))} ${JSON.stringify(r.body)}`]);
    return r;
  };

  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService(
      { AEQ_CONFIG: fastConfig(tempDir()), AEQ_INTERNAL_TOKEN: INTERNAL, AEQ_WEBHOOK_SECRET: WEBHOOK_SECRET },
      { logLines },
    );
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it('runs the lifecycle', async () => {
    const internal = { authorization: `Bearer ${INTERNAL}` };
    const call = async (what: string, method: string, p: string, body?: unknown, key?: string) =>
      record(what, await svc.call(method, p, body, key ? { authorization: `Bearer ${key}` } : {}));
    for (const name of ['north', 'south'])
      record('account', await svc.call('POST', '/internal/accounts', { name }, internal));
    for (const [account, expires] of [
      ['north', undefined],
      ['north', '30m'],
      ['south', undefined],
    ] as const) {
      // The creation answer is the one place a key appears: it is kept out of the searched answers.
      const made = await svc.call('POST', '/internal/keys', { account, ...(expires ? { expires } : {}) }, internal);
      expect(made.status).toBe(201);
      keys.push(made.body.key);
    }
    const [north, north2, south] = keys as [string, string, string];
    const hook = { url: `${hooks.url}/hook` };
    for (const key of [north, north2, south]) {
      const t = await call(
        'submit',
        'POST',
        '/v1/async/task',
        { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'p' }, webhook: hook },
        key,
      );
      for (let i = 0; i < 100; i++) {
        const v = await call('poll', 'GET', `/v1/async/task/${t.body.task.id}`, undefined, key);
        if (v.body.task?.status === 'COMPLETED') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await call('log', 'GET', `/v1/async/task/${t.body.task.id}/deliveries`, undefined, key);
      await call(
        'other account',
        'GET',
        `/v1/async/task/${t.body.task.id}/deliveries`,
        undefined,
        key === south ? north : south,
      );
    }
    const b = await call(
      'batch',
      'POST',
      `/v1/async/task/batch?webhook=${encodeURIComponent(`${hooks.url}/batch`)}`,
      [
        { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'b' } },
        { taskType: 'ANSWER_ENGINE_A', payload: {} },
      ],
      south,
    );
    await hooks.waitUntil((all) => all.some((r) => r.path === '/batch'), 15_000, 'batch.completed');
    await call('batch view', 'GET', `/v1/async/batch/${b.body.batch.id}`, undefined, south);
    await call('si', 'POST', '/v1/source-influence', { answer: 'A [1].', citations: ['https://example.com/a'] }, north);
    for (const p of ['/stats', '/v1/usage', '/capacity']) await call(p, 'GET', p, undefined, north);
    record('keys', await svc.call('GET', '/internal/keys', undefined, internal));
    record('internal stats', await svc.call('GET', '/internal/stats', undefined, internal));
    record('revoke', await svc.call('POST', `/internal/keys/${south.slice(0, 12)}/revoke`, undefined, internal));
    expect((await call('revoked', 'GET', '/stats', undefined, south)).status).toBe(401);
    expect((await call('wrong', 'GET', '/stats', undefined, `${north}x`)).status).toBe(401);
    expect((await call('bad body', 'POST', '/v1/async/task', { taskType: 'NOPE' }, north)).status).toBe(400);
    await call('default', 'GET', '/stats');
  }, 60_000);

  it('finds none of them anywhere', () => {
    const hash = (k: string) => createHash('sha256').update(k).digest('hex');
    const forbidden: Array<[string, string]> = [
      ...keys.flatMap(
        (k, i): Array<[string, string]> => [
          [`key ${i}`, k],
          [`key ${i} without its prefix`, k.slice(4)],
          [`hash of key ${i}`, hash(k)],
        ],
      ),
      ['configured key', TEST_KEY],
      ['internal token', INTERNAL],
      ['webhook secret', WEBHOOK_SECRET],
      ['webhook secret key', WEBHOOK_SECRET.slice('whsec_'.length)],
    ];
    const places: Array<[string, string]> = [
      ...logLines.map((l, i): [string, string] => [`log line ${i}`, l]),
      ...answers,
      ...hooks.received.map((r): [string, string] => [
        `delivery ${r.path}`,
        JSON.stringify({ h: r.headers, b: r.body }),
      ]),
    ];
    expect(logLines.length).toBeGreaterThan(10);
    expect(hooks.received.length).toBeGreaterThanOrEqual(4);
    const leaks = places.flatMap(([where, text]) =>
      forbidden.filter(([, secret]) => text.includes(secret)).map(([what]) => `${what} in ${where}`),
    );
    expect(leaks).toEqual([]);
  });
});
