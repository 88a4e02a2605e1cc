import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fastConfig,
  startService,
  steppedClock,
  tempDir,
  waitTerminal,
  type RunningService,
} from '../helpers/service.js';

const INTERNAL = 'internal-token-usage-0123456';
const DAY = 86_400_000;

/**
 * GET /v1/usage: the caller's account's finished tasks and credits by day and engine, from the credits persisted
 * with each terminal task; the figures stay after the retention sweep deletes the tasks (usage_daily); /metrics
 * counts credits per account and engine.
 */
describe('usage per account', () => {
  const clock = steppedClock(Date.UTC(2026, 10, 20, 12));
  let svc: RunningService;
  let key = '';
  let accountId = '';
  const internal = { authorization: `Bearer ${INTERNAL}` };

  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_INTERNAL_TOKEN: INTERNAL }, { clock });
    accountId = (await svc.call('POST', '/internal/accounts', { name: 'usage-a' }, internal)).body.account.id;
    key = (await svc.call('POST', '/internal/keys', { account: 'usage-a' }, internal)).body.key;
  });
  afterAll(() => svc.stop());

  it('counts finished tasks and credits charged per day and engine, before and after the sweep', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const charged: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await svc.call(
        'POST',
        '/v1/async/task',
        { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `u${i}` } },
        auth,
      );
      const done = await waitTerminalAs(svc, r.body.task.id, auth);
      charged.push(done.credits.creditsCharged);
    }
    const other = await svc.call('POST', '/v1/async/task', { taskType: 'SEARCH_B_SERP', payload: { query: 'not a' } });
    await waitTerminal(svc, other.body.task.id);
    const credits = charged.reduce((a, b) => a + b, 0);
    expect(credits).toBeGreaterThan(0);

    const expected = {
      success: true,
      from: '2026-11-20',
      to: '2026-11-20',
      usage: [{ day: '2026-11-20', engine: 'ANSWER_ENGINE_A', tasks: 3, credits }],
      totals: { tasks: 3, credits },
    };
    const q = '/v1/usage?from=2026-11-20&to=2026-11-20';
    expect((await svc.call('GET', q, undefined, auth)).body).toEqual(expected);
    // The default 30 days end today.
    const byDefault = (await svc.call('GET', '/v1/usage', undefined, auth)).body;
    expect(byDefault).toMatchObject({ from: '2026-10-22', to: '2026-11-20', totals: { tasks: 3, credits } });
    // The default account sees its own task only.
    expect((await svc.call('GET', q)).body.usage.map((u: { engine: string }) => u.engine)).toEqual(['SEARCH_B_SERP']);

    const metrics = (await svc.raw('GET', '/metrics', undefined, internal)).body as string;
    const line = `aeq_credits_charged_total{account="${accountId}",engine="ANSWER_ENGINE_A"} ${credits}`;
    expect(metrics).toContain(line);

    // Past retention the tasks are swept; their usage stays.
    clock.advance(DAY + 3_600_000);
    expect(await svc.app.sweeper.runOnce()).toBe(4);
    expect((await svc.call('GET', q, undefined, auth)).body).toEqual(expected);
    expect((await svc.call('GET', '/v1/usage?from=2026-11-21&to=2026-11-21', undefined, auth)).body.usage).toEqual([]);
  });

  it('refuses a range that is not one (400 VALIDATION_ERROR)', async () => {
    for (const q of [
      'from=2026-11-21&to=2026-11-20',
      'from=2026-02-30',
      'to=2026-13-01',
      'from=2024-01-01&to=2026-01-01',
      'from=yesterday',
    ]) {
      const r = await svc.call('GET', `/v1/usage?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});

async function waitTerminalAs(svc: RunningService, id: string, auth: Record<string, string>) {
  for (let i = 0; i < 400; i++) {
    const r = await svc.call('GET', `/v1/async/task/${id}`, undefined, auth);
    if (r.body.task?.status === 'COMPLETED' || r.body.task?.status === 'FAILED') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`task ${id} not terminal`);
}
