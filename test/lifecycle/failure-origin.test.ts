import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineAdapter } from '../../src/engines/adapter.js';
import { defaultRegistry } from '../../src/adapters.js';
import { webScrape } from '../../src/engines/web/web-scrape.js';
import { fastConfig, runTask, startService, tempDir, type RunningService } from '../helpers/service.js';

/**
 * Failures by origin: an exception in our own code is an internal failure (logged once with its
 * stack, counted, never retried, no cooldown); a refusal is scoped to the upstream that refused; a
 * provider's permanent error is not retried.
 */

/** WEB_SCRAPE whose parse step has a bug: it reads the real page, then trips over its own result. */
const INTERNAL = 'internal-token-failure-origin';
const internal = { authorization: `Bearer ${INTERNAL}` };

const buggyWebScrape: EngineAdapter = {
  taskType: 'WEB_SCRAPE',
  needsAccount: false,
  async run(ctx) {
    const result = await webScrape.run(ctx);
    const extra = result.extra as Record<string, { length: number } | undefined>;
    // The kind of slip a parser makes: a member that is absent on this page.
    return { ...result, text: String(extra.missingMember!.length) };
  },
};

async function pageServer(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<html><head><title>A page</title></head><body><article><h1>A page</h1><p>Some text long enough to be ' +
          'read as the article of this page, with a second sentence for good measure.</p></article></body></html>',
      );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/a`,
    hits: () => hits,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('an exception in our own code', () => {
  let svc: RunningService;
  let pages: Awaited<ReturnType<typeof pageServer>>;
  const logLines: string[] = [];
  beforeAll(async () => {
    pages = await pageServer();
    const registry = defaultRegistry().register(buggyWebScrape);
    svc = await startService(
      { AEQ_CONFIG: fastConfig(tempDir()), AEQ_INTERNAL_TOKEN: INTERNAL },
      { registry, logLines },
    );
  });
  afterAll(async () => {
    await svc.stop();
    await pages.close();
  });

  it('fails the task once with ENGINE_FAILED, logs the stack at error level, counts it, cools nothing', async () => {
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: pages.url } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe('ENGINE_FAILED: The engine request failed.');
    expect((await svc.app.store.tasks.get({ id: r.task.id, notBefore: 0 }))?.attempts).toBe(1);
    expect(pages.hits()).toBe(1);

    const errors = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    const [line] = errors;
    expect(line).toMatchObject({ msg: 'engine internal error', engine: 'WEB_SCRAPE', taskId: r.task.id });
    const err = line?.err as { type: string; stack: string };
    expect(err.type).toBe('TypeError');
    expect(err.stack).toMatch(/failure-origin\.test\.ts/);

    const metrics = await (await fetch(`${svc.url}/metrics`, { headers: internal })).text();
    expect(metrics).toMatch(/^aeq_engine_internal_errors_total\{engine="WEB_SCRAPE"\} 1$/m);
    // Not reported as the upstream's failure.
    expect(metrics).not.toMatch(/^aeq_upstream_failures_total\{engine="WEB_SCRAPE"/m);
    expect(svc.app.pools.exits.list().filter((x) => svc.app.pools.exits.coolingUntil(x) > 0)).toEqual([]);
  });

  it('a connection refused by the upstream is still the upstream failing, and is retried', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: `http://127.0.0.1:${port}/gone` } });
    expect(r.error).toBe('ENGINE_FAILED: The engine request failed.');
    expect((await svc.app.store.tasks.get({ id: r.task.id, notBefore: 0 }))?.attempts).toBe(3);
    const metrics = await (await fetch(`${svc.url}/metrics`, { headers: internal })).text();
    expect(metrics).toMatch(/^aeq_upstream_failures_total\{engine="WEB_SCRAPE",kind="UPSTREAM_ERROR"\} 3$/m);
    expect(metrics).toMatch(/^aeq_engine_internal_errors_total\{engine="WEB_SCRAPE"\} 1$/m);
  });
});

describe('a refusal cools the exit address for that upstream only', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const dir = tempDir();
    const config = fastConfig(dir, { scheduler: { exitCooldownMs: 600_000, poolWaitMs: 100 } });
    // One exit address in DE, so a cooldown for every engine would leave Bing nowhere to go.
    const file = JSON.parse(fs.readFileSync(config, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(
      config,
      JSON.stringify({ ...file, exitAddresses: [{ id: 'de-only', country: 'DE', maxConcurrent: 8 }] }),
    );
    svc = await startService({ AEQ_CONFIG: config });
  });
  afterAll(() => svc.stop());

  it('after Google refuses the address, Bing tasks still run on it at once', async () => {
    const blocked = await runTask(svc, {
      taskType: 'SEARCH_A',
      payload: { query: 'cheap flights sandbox:captcha', country: 'DE' },
    });
    expect(blocked.task.status).toBe('FAILED');
    const exit = svc.app.pools.exits.get('de-only');
    if (!exit) throw new Error('exit address missing');
    const rests = svc.app.pools.exits.activeCooldowns(exit);
    expect(rests.map((c) => c.scope)).toEqual([expect.stringMatching(/\/google$/)]);

    const bing = await runTask(svc, {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: 'cheap flights', country: 'DE' },
    });
    expect(bing.task.status).toBe('COMPLETED');
    // Google is still resting on that address.
    const google = await runTask(
      svc,
      { taskType: 'SEARCH_A', payload: { query: 'cheap flights', country: 'DE' } },
      30_000,
    );
    expect(google.error).toMatch(/^NO_IP_AVAILABLE: /);
  });
});

describe("a provider's permanent error", () => {
  let svc: RunningService;
  let upstream: http.Server;
  let calls = 0;
  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      calls++;
      req.resume();
      // OpenAI's billing answer (docs/engines.md#openai-responses): a 429 that no wait fixes.
      const body = {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      };
      res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const config = fastConfig(tempDir(), {
      engines: { ANSWER_ENGINE_A: { upstream: { baseUrl: base, apiKey: 'pplx-test-key' } } },
    });
    svc = await startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: config });
  });
  afterAll(async () => {
    await svc.stop();
    await new Promise((r) => upstream.close(r));
  });

  it('insufficient_quota is not retried and cools nothing', async () => {
    const r = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'best running shoes' } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe('ENGINE_FAILED: The engine request failed.');
    expect((await svc.app.store.tasks.get({ id: r.task.id, notBefore: 0 }))?.attempts).toBe(1);
    expect(calls).toBe(1);
    expect(svc.app.pools.exits.list().filter((x) => svc.app.pools.exits.coolingUntil(x) > 0)).toEqual([]);
  });
});

describe('recorded refusals with the default three attempts', () => {
  const recorded = (p: string) => fs.readFileSync(new URL(`../fixtures/real/${p}`, import.meta.url));
  let svc: RunningService;
  let upstream: http.Server;
  const calls = new Map<string, number>();
  /** Which recorded answer each upstream path gives (test/fixtures/real/*\/PROVENANCE.md). */
  const answers: Record<string, { status: number; body: Buffer }> = {
    '/openai/v1/responses': { status: 401, body: recorded('chat/errors/openai-401-invalid-api-key-ruby-llm.json') },
    '/perplexity/chat/completions': { status: 401, body: recorded('chat/errors/perplexity-401-invalid-api-key.json') },
    '/gemini/v1beta/models/gemini-2.5-flash:generateContent': {
      status: 404,
      body: recorded('chat/errors/gemini-404-model-not-found.json'),
    },
    '/reddit/r/private_club/hot.json': { status: 403, body: recorded('reddit/errors/redditwarp-403-private.json') },
    '/reddit/r/closed/hot.json': { status: 403, body: recorded('reddit/errors/ocaml-403-forbidden.json') },
  };
  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      calls.set(path, (calls.get(path) ?? 0) + 1);
      req.resume();
      const a = answers[path];
      if (!a) return void res.writeHead(599).end(`no recording for ${path}`);
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const config = fastConfig(tempDir(), {
      engines: {
        CHATBOT_A: { mode: 'api', upstream: { baseUrl: `${base}/openai`, apiKey: 'sk-test-key' } },
        ANSWER_ENGINE_A: { upstream: { baseUrl: `${base}/perplexity`, apiKey: 'pplx-test-key' } },
        ASSISTANT_A: { upstream: { baseUrl: `${base}/gemini`, apiKey: 'gemini-test-key' } },
        FORUM: { upstream: { baseUrl: `${base}/reddit` } },
      },
    });
    svc = await startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: config });
  });
  afterAll(async () => {
    await svc.stop();
    await new Promise((r) => upstream.close(r));
  });

  it('an invalid key or an unknown model is asked once, and cools nothing', async () => {
    for (const [taskType, path] of [
      ['CHATBOT_A', '/openai/v1/responses'],
      ['ANSWER_ENGINE_A', '/perplexity/chat/completions'],
      ['ASSISTANT_A', '/gemini/v1beta/models/gemini-2.5-flash:generateContent'],
    ] as const) {
      const r = await runTask(svc, { taskType, payload: { prompt: 'best running shoes' } });
      expect(r.error, taskType).toBe('ENGINE_FAILED: The engine request failed.');
      expect(calls.get(path), taskType).toBe(1);
    }
    expect(svc.app.pools.exits.list().filter((x) => svc.app.pools.exits.coolingUntil(x) > 0)).toEqual([]);
  });

  it('a community refused with 403 is PAGE_UNAVAILABLE saying what to change, asked once, cools nothing', async () => {
    const priv = await runTask(svc, { taskType: 'FORUM', payload: { action: 'feed', community: 'private_club' } });
    expect(priv.error).toBe(
      'PAGE_UNAVAILABLE: This community is private: only its approved members can read it. Choose another community.',
    );
    const closed = await runTask(svc, { taskType: 'FORUM', payload: { action: 'feed', community: 'closed' } });
    expect(closed.error).toMatch(
      new RegExp(
        '^PAGE_UNAVAILABLE: Reddit refuses this community or post to anonymous readers ' +
          String.raw`.*choose another community or post\.$`,
      ),
    );
    expect(calls.get('/reddit/r/private_club/hot.json')).toBe(1);
    expect(calls.get('/reddit/r/closed/hot.json')).toBe(1);
    expect(svc.app.pools.exits.list().filter((x) => svc.app.pools.exits.coolingUntil(x) > 0)).toEqual([]);
  });
});
