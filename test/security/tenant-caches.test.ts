import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/adapters.js';
import { analysisConfig } from '../../src/analysis/config.js';
import { createPromptResearchAdapter } from '../../src/analysis/prompt-research/adapter.js';
import { createSourceInfluenceAdapter } from '../../src/analysis/source-influence/adapter.js';
import { startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

const INTERNAL = 'internal-token-tenant-caches-0123';
const DAY_MS = 86_400_000;
/**
 * The page and suggestion caches on (a day, as shipped), with the autocomplete spacing removed so a research
 * takes seconds. The adapters build their own caches, as in production.
 */
const CACHED = analysisConfig({
  pr: { requests: { delayMs: 0, jitterMs: 0 }, cacheTtlMs: DAY_MS },
  si: { fetch: { cacheTtlMs: DAY_MS, retryDelayMs: 10, timeoutMs: 4_000 }, model: { timeoutMs: 4_000 } },
});
const ARTICLE = `<!doctype html><html><head><title>Knee pain and running shoes</title></head><body><article>
<h1>Knee pain and running shoes</h1><p>${'Cushioned shoes with a stable heel help sore knees. '.repeat(8)}</p>
</article></body></html>`;

/**
 * The analysis caches are per account: after one account read a URL (or researched a seed), another account's
 * result for the same input shows no trace of it (no `fromCache`, no `cacheHits`, the page fetched again and
 * metered the same), while the first account's repeat does hit, so the cache is on.
 */
describe('analysis caches do not reveal other tenants', () => {
  let svc: RunningService;
  let pages: http.Server;
  let pageHits = 0;
  let pageUrl = '';
  const keys: Record<string, string> = {};
  const as = (who: string, method: string, p: string, body?: unknown) =>
    svc.call(method, p, body, { authorization: `Bearer ${keys[who]}` });
  const run = async (who: string, p: '/v1/source-influence' | '/v1/prompt-research', body: unknown) => {
    const r = await as(who, 'POST', p, body);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const id = r.body.task.id as string;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const v = await as(who, 'GET', `/v1/async/task/${id}`);
      if (v.body.task?.status === 'COMPLETED') return v.body;
      if (v.body.task?.status === 'FAILED' || Date.now() > deadline) throw new Error(JSON.stringify(v.body));
      await new Promise((res) => setTimeout(res, 50));
    }
  };

  beforeAll(async () => {
    pages = http.createServer((_req, res) => {
      pageHits++;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    });
    await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/knee-pain`;
    const registry = defaultRegistry()
      .register(createSourceInfluenceAdapter({ config: CACHED }))
      .register(createPromptResearchAdapter({ config: CACHED }));
    const dir = tempDir('aeq-caches-');
    const config = writeConfig(dir, { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });
    svc = await startService({ AEQ_CONFIG: config, AEQ_INTERNAL_TOKEN: INTERNAL }, { registry });
    const internal = { authorization: `Bearer ${INTERNAL}` };
    for (const name of ['acme', 'globex']) {
      expect((await svc.call('POST', '/internal/accounts', { name }, internal)).status).toBe(201);
      keys[name] = (await svc.call('POST', '/internal/keys', { account: name }, internal)).body.key;
    }
  });
  afterAll(async () => {
    await svc.stop();
    await new Promise<void>((r) => pages.close(() => r()));
  });

  it('source influence: the page cache hits for the account that read the page, never for another', async () => {
    const body = { answer: 'Cushioned shoes help runners with knee pain [1].', citations: [pageUrl] };
    const first = (await run('acme', '/v1/source-influence', body)).response;
    expect(first.sources[0].fetch).toMatchObject({ status: 'ok', fromCache: false });
    expect(first.usage.sourceFetches).toMatchObject({ attempted: 1, cacheHits: 0 });
    expect(pageHits).toBe(1);

    const again = (await run('acme', '/v1/source-influence', body)).response;
    expect(again.sources[0].fetch).toMatchObject({ status: 'ok', fromCache: true });
    expect(again.usage.sourceFetches).toMatchObject({ attempted: 0, cacheHits: 1 });
    expect(pageHits).toBe(1);

    const other = await run('globex', '/v1/source-influence', body);
    expect(other.response.sources[0].fetch).toEqual(first.sources[0].fetch);
    expect(other.response.usage.sourceFetches).toEqual(first.usage.sourceFetches);
    expect(other.response.usage).toEqual(first.usage);
    expect(pageHits).toBe(2);
  });

  it('prompt research: the suggestion cache hits for the account that asked, never for another', async () => {
    const body = { seed: 'trail running shoes', country: 'US', limit: 10 };
    const first = (await run('acme', '/v1/prompt-research', body)).response;
    expect(first.usage.cacheHits).toBe(0);
    expect(first.usage.autocompleteRequests.google).toBeGreaterThan(0);

    const again = (await run('acme', '/v1/prompt-research', body)).response;
    expect(again.usage.cacheHits).toBeGreaterThan(0);
    expect(again.usage.autocompleteRequests.google).toBe(0);

    const other = (await run('globex', '/v1/prompt-research', body)).response;
    expect(other.usage).toEqual(first.usage);
    expect(other.stats).toEqual(first.stats);
  });
});
