import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/adapters.js';
import { chromiumAvailable } from '../browser/chromium.js';
import type { EngineAdapter } from '../../src/engines/adapter.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { fastConfig, runTask, startService, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';

/**
 * A failed task says why: beside the contract's fixed `error` string, polling, the webhook and a listing carry
 * `failure` {code, origin, message, upstreamHost, attempts} for the last attempt, persisted with the terminal state.
 */
const SIM_HOST = /^127\.0\.0\.1:\d+$/;
const FAILED = 'ENGINE_FAILED: The engine request failed.';

/** WEB_SCRAPE with a bug of our own: it trips before it reads anything. */
const buggyWebScrape: EngineAdapter = {
  taskType: 'WEB_SCRAPE',
  needsAccount: false,
  async run() {
    const parsed = JSON.parse('{}') as { items?: string[] };
    const text = parsed.items!.join(' ');
    return { text, markdown: text, sources: [], raw: {} };
  },
};

describe('the reason of a failed task', () => {
  let svc: RunningService;
  let receiver: Receiver;
  const dataDir = tempDir();
  const config = fastConfig(dataDir);
  const ids: Record<string, string> = {};
  const polls: Record<string, any> = {};

  beforeAll(async () => {
    receiver = await startReceiver();
    svc = await startService({ AEQ_DATA_DIR: dataDir, AEQ_CONFIG: config });
  });
  afterAll(async () => {
    await svc.stop();
    await receiver.close();
  });

  it('an upstream 5xx on every attempt: UPSTREAM_ERROR from the upstream, its status, host and attempts', async () => {
    const sub = await svc.call('POST', '/v1/async/task', {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: 'running shoes sandbox:error' },
      webhook: { url: `${receiver.url}/hook` },
    });
    expect(sub.status).toBe(202);
    ids.error = sub.body.task.id;
    const r = await waitTerminal(svc, ids.error as string);
    polls.error = r;
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(FAILED);
    expect(r.failure).toEqual({
      code: 'UPSTREAM_ERROR',
      origin: 'upstream',
      message: expect.stringMatching(/^The upstream or the connection to it failed \(bing answered HTTP 5\d\d\)\.$/),
      upstreamHost: expect.stringMatching(SIM_HOST),
      attempts: 3,
    });
  });

  it('the webhook carries the same failure beside the unchanged response.error', async () => {
    await receiver.waitUntil((all) => all.some((x) => x.body?.task?.id === ids.error), 10_000, 'the webhook');
    const hook = receiver.received.find((x) => x.body?.task?.id === ids.error);
    expect(hook?.body.response).toEqual({ error: FAILED });
    expect(hook?.body.failure).toEqual(polls.error.failure);
  });

  it('a stream cut before response.completed says so', async () => {
    const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'cut me off sandbox:cut' } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(FAILED);
    expect(r.failure.code).toBe('UPSTREAM_ERROR');
    expect(r.failure.origin).toBe('upstream');
    expect(r.failure.message).toMatch(/ended before response\.completed after \d+ events/);
    expect(r.failure.upstreamHost).toMatch(SIM_HOST);
    expect(r.failure.attempts).toBe(3);
    ids.cut = r.task.id;
    polls.cut = r;
  });

  it('a captcha on every attempt: UPSTREAM_BLOCKED', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_A_SERP',
      payload: { query: 'umbrellas sandbox:captcha', country: 'GB' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(FAILED);
    expect(r.failure).toMatchObject({ code: 'UPSTREAM_BLOCKED', origin: 'upstream', attempts: 3 });
    // The simulated Google answers its "sorry" page with HTTP 429, as Google does.
    expect(r.failure.message).toMatch(/^The upstream answered with a block or captcha page \(google: sorry_page/);
    ids.captcha = r.task.id;
    polls.captcha = r;
  });

  it('a timeout says how long it waited', async () => {
    const slow = await startService({
      AEQ_CONFIG: fastConfig(tempDir(), { engines: { SEARCH_C_SEARCH: { timeoutMs: 300, maxAttempts: 1 } } }),
    });
    try {
      const r = await runTask(slow, { taskType: 'SEARCH_C_SEARCH', payload: { query: 'slow sandbox:timeout' } });
      expect(r.error).toMatch(/^ENGINE_TIMEOUT: /);
      expect(r.failure).toMatchObject({ code: 'TIMEOUT', origin: 'upstream', attempts: 1 });
      expect(r.failure.message).toMatch(/within 300 ms/);
    } finally {
      await slow.stop();
    }
  });

  it('a listing with include=result shows the same failure', async () => {
    const since = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const r = await svc.call('GET', `/v1/async/tasks?since=${since}&include=result&status=FAILED`);
    expect(r.status).toBe(200);
    const listed = (r.body.tasks as Array<{ task: { id: string }; failure?: unknown }>).find(
      (x) => x.task.id === ids.captcha,
    );
    expect(listed?.failure).toEqual(polls.captcha.failure);
  });

  it('polling after a restart shows the persisted failure', async () => {
    await svc.stop();
    svc = await startService({ AEQ_DATA_DIR: dataDir, AEQ_CONFIG: config });
    for (const k of ['error', 'cut', 'captcha']) {
      const r = await svc.call('GET', `/v1/async/task/${ids[k]}`);
      expect(r.body.error).toBe(FAILED);
      expect(r.body.failure).toEqual(polls[k].failure);
    }
  });

  it('a completed task has no failure, even after a failed attempt', async () => {
    const r = await runTask(svc, { taskType: 'SEARCH_C_SEARCH', payload: { query: 'shoes sandbox:flaky=1' } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.failure).toBeUndefined();
    expect(r.error).toBeUndefined();
  });
});

describe('a bug in aeq', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(
      { AEQ_CONFIG: fastConfig(tempDir()) },
      { registry: defaultRegistry().register(buggyWebScrape) },
    );
  });
  afterAll(() => svc.stop());

  it("says it is aeq's fault, not the upstream's, without the exception's text", async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: 'http://127.0.0.1:9/page' } });
    expect(r.error).toBe(FAILED);
    expect(r.failure).toMatchObject({ code: 'INTERNAL_ERROR', origin: 'aeq', attempts: 1 });
    expect(r.failure.message).toMatch(/aeq failed in its own code \(TypeError\).*the upstream is not at fault/);
    expect(r.failure.message).not.toMatch(/join|undefined/);
  });
});

describe('an engine that cannot serve at all', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const config = fastConfig(tempDir(), {
      paused: ['FORUM'],
      engines: {
        // `api` mode without a key: no credentials.
        ANSWER_ENGINE_A: { mode: 'api', upstream: { apiKey: '' } },
        SEARCH_C_SEARCH: { mode: 'off' },
      },
    });
    svc = await startService({ AEQ_CONFIG: config });
  });
  afterAll(() => svc.stop());

  it('is refused at submit with 422 ENGINE_UNAVAILABLE and the reason', async () => {
    const none = await svc.call('POST', '/v1/async/task', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' } });
    expect(none.status).toBe(422);
    expect(none.body.success).toBe(false);
    expect(none.body.error.code).toBe('ENGINE_UNAVAILABLE');
    expect(none.body.error.details).toEqual({
      engine: 'ANSWER_ENGINE_A',
      reason: 'NO_CREDENTIALS',
      message: expect.stringMatching(/no provider API key/),
    });
    const off = await svc.call('POST', '/v1/async/task', { taskType: 'SEARCH_C_SEARCH', payload: { query: 'x' } });
    expect(off.status).toBe(422);
    expect(off.body.error.details).toMatchObject({ engine: 'SEARCH_C_SEARCH', reason: 'SWITCHED_OFF' });
  });

  it('is a failure entry of its item in a batch, the other items accepted', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', [
      { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' } },
      { taskType: 'WEB_SCRAPE', payload: { url: 'http://127.0.0.1:9/' } },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ total: 2, succeeded: 1, failed: 1 });
    expect(r.body.results[0].error.code).toBe('ENGINE_UNAVAILABLE');
    expect(r.body.results[1].success).toBe(true);
  });

  it('a monitor of it is refused at creation, as a submit is', async () => {
    const r = await svc.call('POST', '/v1/monitors', {
      name: 'Off engine',
      prompts: ['best running shoes'],
      engines: ['ANSWER_ENGINE_A', 'CHATBOT_A'],
      brand: { name: 'Nike' },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('ENGINE_UNAVAILABLE');
    expect(r.body.error.details).toMatchObject({ engine: 'ANSWER_ENGINE_A', reason: 'NO_CREDENTIALS' });
  });

  it('a paused engine is still accepted: it keeps its queue', async () => {
    const r = await svc.call('POST', '/v1/async/task', { taskType: 'FORUM', payload: { query: 'shoes' } });
    expect(r.status).toBe(202);
  });

  it('/capacity says so, with the reason, and no country is serveable', async () => {
    const c = (await svc.call('GET', '/capacity')).body;
    expect(c.answer_engine_a).toMatchObject({ mode: 'off', unavailableReason: 'NO_CREDENTIALS' });
    expect(c.answer_engine_a.unavailable).toMatch(/no provider API key/);
    expect(c.search_c_search).toMatchObject({ mode: 'off', unavailableReason: 'SWITCHED_OFF' });
    for (const e of [c.answer_engine_a, c.search_c_search])
      for (const x of Object.values(e.countries) as Array<{ serveable: boolean }>) expect(x.serveable).toBe(false);
    expect(c.forum.unavailable).toBeUndefined();
    expect(c.chatbot_a.unavailable).toBeUndefined();
  });
});

describe('a task queued before its engine was switched off', () => {
  it('fails at once, without a retry, saying the engine cannot serve', async () => {
    const dataDir = tempDir();
    const before = await startService({
      AEQ_DATA_DIR: dataDir,
      AEQ_CONFIG: fastConfig(dataDir, { paused: ['FORUM'] }),
    });
    const sub = await before.call('POST', '/v1/async/task', { taskType: 'FORUM', payload: { query: 'trail shoes' } });
    expect(sub.status).toBe(202);
    await before.stop();
    const off = fastConfig(tempDir(), { engines: { FORUM: { mode: 'off' } } });
    const after = await startService({ AEQ_DATA_DIR: dataDir, AEQ_CONFIG: off });
    try {
      const r = await waitTerminal(after, sub.body.task.id);
      expect(r.error).toBe(FAILED);
      expect(r.failure).toEqual({
        code: 'ENGINE_UNAVAILABLE',
        origin: 'aeq',
        message: 'FORUM cannot serve on this service: switched off in the configuration (engines.FORUM.mode is "off").',
        upstreamHost: null,
        attempts: 1,
      });
    } finally {
      await after.stop();
    }
  });
});

describe.runIf(chromiumAvailable())('a chat engine in its web mode', () => {
  it("names the web host it talked to, not the API's", async () => {
    const config = fastConfig(tempDir(), {
      engines: {
        ANSWER_ENGINE_A: {
          mode: 'api',
          transport: 'browser',
          maxAttempts: 1,
          timeoutMs: 15_000,
          upstream: {
            apiKey: 'web-mode-key',
            baseUrl: 'http://127.0.0.2:9',
            options: { webBaseUrl: 'http://127.0.0.1:9' },
          },
        },
      },
    });
    const svc = await startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: config });
    try {
      const r = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'best trail shoes' } }, 30_000);
      expect(r.task.status).toBe('FAILED');
      expect(r.failure).toMatchObject({ origin: 'upstream', upstreamHost: '127.0.0.1:9', attempts: 1 });
    } finally {
      await svc.stop();
    }
  });
});
