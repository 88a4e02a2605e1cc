import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_TASK_TYPES } from '../../src/domain/engine-catalog.js';
import {
  fastConfig,
  runTask,
  startService,
  submit,
  tempDir,
  waitTerminal,
  writeConfig,
  type RunningService,
} from '../helpers/service.js';

const TOKEN = 'capacity-internal-token';
const internal = { authorization: `Bearer ${TOKEN}` };

describe('GET /capacity in the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({
      AEQ_INTERNAL_TOKEN: TOKEN,
      // One attempt, so a captcha cools exactly one exit address; a long cooldown, so it is still resting when
      // looked at.
      AEQ_ENGINE_MAX_ATTEMPTS: '1',
      AEQ_CONFIG: fastConfig(tempDir(), {
        scheduler: { exitCooldownMs: 600_000 },
        engines: {
          ANSWER_ENGINE_A: { concurrency: 3 },
          // Replaces the default list (which has CN); paused so an accepted task stays queued.
          ASSISTANT_A: { neverServe: ['fr'], paused: true },
          CHATBOT_A: { neverServe: ['KR', 'CN'] },
        },
      }),
    });
  });
  afterAll(() => svc.stop());

  const capacity = async () => {
    const r = await svc.call('GET', '/capacity');
    expect(r.status).toBe(200);
    return r.body;
  };
  const op = (path: string) => svc.call('POST', path, undefined, internal);

  it('reports each engine by its lower-case name with mode, concurrency, inFlight, queued and countries', async () => {
    const c = await capacity();
    for (const t of ENGINE_TASK_TYPES) {
      const e = c[t.toLowerCase()];
      expect(e, t).toBeDefined();
      expect(e).toMatchObject({
        mode: expect.any(String),
        concurrency: expect.any(Number),
        inFlight: expect.any(Number),
        queued: expect.any(Number),
      });
    }
    expect(c.chatbot_a.mode).toBe('account');
    expect(c.answer_engine_a.mode).toBe('api');
    expect(c.assistant_a.mode).toBe('api');
    for (const t of [
      'aimode',
      'search_a',
      'search_a_serp',
      'search_b_ai_brief',
      'search_b_serp',
      'search_c_search',
      'forum',
      'web_scrape',
    ])
      expect(c[t].mode, t).toBe('anon');
    expect(c.chatbot_a.concurrency).toBe(4);
    expect(c.answer_engine_a.concurrency).toBe(3);
  });

  it('per-country {serveable, accounts, hasIps}: accounts count only for account engines', async () => {
    const c = await capacity();
    expect(c.chatbot_a.countries.US).toEqual({ serveable: true, accounts: 4, hasIps: true });
    expect(c.chatbot_a.countries.JP).toEqual({ serveable: false, accounts: 0, hasIps: true });
    expect(c.answer_engine_a.countries.JP).toEqual({ serveable: true, accounts: 0, hasIps: true });
    expect(Object.keys(c.search_a.countries).sort()).toEqual(['DE', 'GB', 'JP', 'KR', 'US']);
  });

  it('queued grows while an engine is paused through the internal route, and drains after resume', async () => {
    expect((await op('/internal/engines/ANSWER_ENGINE_A/pause')).body).toEqual({
      ok: true,
      engine: 'ANSWER_ENGINE_A',
      paused: true,
    });
    const ids = [];
    for (const n of [1, 2, 3])
      ids.push(await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `queued question ${n}` } }));
    let c = await capacity();
    expect(c.answer_engine_a).toMatchObject({ paused: true, queued: 3, inFlight: 0 });
    expect((await op('/internal/engines/answer_engine_a/resume')).body).toEqual({
      ok: true,
      engine: 'ANSWER_ENGINE_A',
      paused: false,
    });
    for (const id of ids) expect((await waitTerminal(svc, id)).task.status).toBe('COMPLETED');
    c = await capacity();
    expect(c.answer_engine_a).toMatchObject({ paused: false, queued: 0, inFlight: 0 });
  });

  it('inFlight counts a task while its attempt runs', async () => {
    // The upstream never answers and the engine's own timeout is long: the attempt stays in flight
    // until the service stops (the drain at stop ends it).
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'held question sandbox:timeout' } });
    // A claim step (after the one the submit woke) has the task running.
    await svc.app.worker!.runOnce();
    expect((await svc.call('GET', `/v1/async/task/${id}`)).body.task.status).toBe('PROCESSING');
    expect((await capacity()).answer_engine_a).toMatchObject({ inFlight: 1, queued: 0 });
  });

  it('REGION_UNSUPPORTED follows the neverServe list of the config file', async () => {
    const c = await capacity();
    expect(c.assistant_a.neverServe).toEqual(['FR']);
    expect(c.chatbot_a.neverServe).toEqual(['KR', 'CN']);
    expect(c.chatbot_a.countries.KR).toBeUndefined();

    const fr = await svc.call('POST', '/v1/async/task', {
      taskType: 'ASSISTANT_A',
      payload: { prompt: 'x', country: 'FR' },
    });
    expect(fr.status).toBe(422);
    expect(fr.body.error).toMatchObject({
      code: 'REGION_UNSUPPORTED',
      details: { taskType: 'ASSISTANT_A', country: 'FR', retryable: false },
    });
    // CN is in the default list but not in the override: accepted (and left queued, the engine is paused).
    expect(
      (await svc.call('POST', '/v1/async/task', { taskType: 'ASSISTANT_A', payload: { prompt: 'x', country: 'CN' } }))
        .status,
    ).toBe(202);
    // KR has accounts, but the engine may never serve it.
    const kr = await svc.call('POST', '/v1/async/task', {
      taskType: 'CHATBOT_A',
      payload: { prompt: 'x', country: 'KR' },
    });
    expect(kr.status).toBe(422);
    expect(kr.body.error.code).toBe('REGION_UNSUPPORTED');
  });

  it('a captcha cools the exit it hit: /internal/pools shows it resting, the country keeps its IPs', async () => {
    const gbExits = async () =>
      (
        (await svc.call('GET', '/internal/pools', undefined, internal)).body.exitAddresses as Array<{
          id: string;
          country: string;
          coolingDownUntil: string | null;
        }>
      ).filter((x) => x.country === 'GB');
    expect((await gbExits()).every((x) => x.coolingDownUntil === null)).toBe(true);
    const r = await runTask(svc, {
      taskType: 'SEARCH_A_SERP',
      payload: { query: 'umbrellas sandbox:captcha', country: 'GB' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED: /);
    const cooling = (await gbExits()).filter((x) => x.coolingDownUntil !== null);
    expect(cooling).toHaveLength(1);
    expect(Date.parse(cooling[0]?.coolingDownUntil ?? '')).toBeGreaterThan(Date.now());
    // Resting is not disabled: the region still has exit addresses.
    expect((await capacity()).search_a_serp.countries.GB).toEqual({ serveable: true, accounts: 0, hasIps: true });
    // Re-enabling an exit address ends its rest at once.
    const id = cooling[0]?.id ?? '';
    await op(`/internal/pools/exit-addresses/${id}/disable`);
    await op(`/internal/pools/exit-addresses/${id}/enable`);
    expect((await gbExits()).every((x) => x.coolingDownUntil === null)).toBe(true);
  });
});

describe('GET /capacity outside the sandbox without provider keys', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: writeConfig(tempDir(), { engines: {} }) });
  });
  afterAll(() => svc.stop());

  it('api engines are off, account engines have no accounts, the host connection is the one exit address', async () => {
    const c = (await svc.call('GET', '/capacity')).body;
    expect(c.answer_engine_a.mode).toBe('off');
    expect(c.assistant_a.mode).toBe('off');
    expect(c.chatbot_a.mode).toBe('account');
    expect(c.search_a.mode).toBe('anon');
    expect(c.chatbot_a.countries).toEqual({ US: { serveable: false, accounts: 0, hasIps: true } });
    expect(c.web_scrape.countries).toEqual({ US: { serveable: true, accounts: 0, hasIps: true } });
  });
});
