import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

interface Organic {
  position: number;
  url: string;
  title: string;
  snippet: string;
  site: string;
}
interface SourceView {
  position: number;
  url: string;
  label: string;
}

describe('search engine A (Google) through the service and the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const config = writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });
    svc = await startService({ AEQ_CONFIG: config, AEQ_ENGINE_TIMEOUT_MS: '5000' });
  });
  afterAll(() => svc.stop());

  it('SEARCH_A with an AI Overview answers with the overview, its citations and the organic results', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_A',
      payload: { prompt: 'best budget laptops sandbox:aio', country: 'US' },
    });
    expect(r.task).toMatchObject({ taskType: 'SEARCH_A', status: 'COMPLETED' });
    const res = r.response;
    expect(res.aioverview).toMatchObject({ text: expect.any(String), markdown: expect.any(String) });
    expect(res.text).toBe(res.aioverview.text);
    expect(res.markdown).toBe(res.aioverview.markdown);
    expect(res.markdown).toMatch(/^- /m);
    expect(res.sources).toEqual(res.aioverview.sources);
    // Three sources, and a fourth where the overview links the brand it names first to its site.
    expect(res.sources.length).toBeGreaterThanOrEqual(3);
    expect(res.sources.map((s: SourceView) => s.position)).toEqual(
      res.sources.map((_: SourceView, i: number) => i + 1),
    );
    for (const s of res.sources as SourceView[]) expect(s.url).not.toMatch(/#:~:text=|utm_/);
    expect(res.organic.length).toBeGreaterThanOrEqual(8);
    expect(res.organic.map((o: Organic) => o.position)).toEqual(res.organic.map((_: Organic, i: number) => i + 1));
    const urls = (res.organic as Organic[]).map((o) => o.url);
    expect(new Set(urls).size).toBe(urls.length);
    // The ad above the results and the Google-internal "Images" link are not organic results.
    expect(urls.filter((u) => u.includes('ads.example.com') || u.includes('/search?'))).toEqual([]);
    for (const o of res.organic as Organic[])
      expect(o.title && o.snippet && o.site && /^https:\/\//.test(o.url)).toBeTruthy();
    expect(res.aioverview.text).not.toMatch(/AI Overview|Show more|may include mistakes/);
  });

  it('SEARCH_A without an AI Overview answers with a numbered organic list and aioverview null', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_A_AIO',
      payload: { query: 'hiking boots for wide feet sandbox:noaio' },
    });
    expect(r.task).toMatchObject({ taskType: 'SEARCH_A', status: 'COMPLETED' });
    const res = r.response;
    expect(res.aioverview).toBeNull();
    const first = res.organic[0] as Organic;
    expect(res.text.split('\n')[0]).toBe(`1. ${first.title} — ${first.url} — ${first.snippet}`);
    expect(res.markdown.split('\n')[0]).toBe(`1. [${first.title}](${first.url}) — ${first.snippet}`);
    expect(res.sources[0]).toEqual({ position: 1, url: first.url, label: first.title });
  });

  it('SEARCH_A_SERP page 3 gives global positions from 21 and no AI Overview', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_A_SERP',
      payload: { query: 'espresso grinder sandbox:aio', page: 3 },
    });
    expect(r.task.status).toBe('COMPLETED');
    const res = r.response;
    expect(res.page).toBe(3);
    expect(res).not.toHaveProperty('aioverview');
    const positions = res.organic.map((o: Organic) => o.position);
    expect(positions[0]).toBe(21);
    expect(positions).toEqual(positions.map((_: number, i: number) => 21 + i));
    expect(res.sources.map((s: SourceView) => s.position)).toEqual(positions);
    expect(res.sources[0].label).toBe(res.organic[0].title);
    expect(res.text.split('\n')[0]).toMatch(/^21\. .+ — https:\/\/\S+ — .+/);
    expect(res.markdown.split('\n')[0]).toMatch(/^21\. \[.+\]\(https:\/\/\S+\) — .+/);
  });

  it('SEARCH_A_SERP defaults to page 1', async () => {
    const r = await runTask(svc, { taskType: 'SEARCH_A_SERP', payload: { query: 'espresso grinder' } });
    expect(r.response.page).toBe(1);
    expect(r.response.organic[0].position).toBe(1);
  });

  it('SEARCH_A and SEARCH_A_SERP read the shopping unit, ads and places; the directives turn them off', async () => {
    const on = await runTask(svc, {
      taskType: 'SEARCH_A',
      payload: { query: 'trail running shoes sandbox:products sandbox:places sandbox:noaio', country: 'US' },
    });
    expect(on.task.status).toBe('COMPLETED');
    const res = on.response;
    expect(res.products.length).toBeGreaterThanOrEqual(3);
    for (const [i, p] of (res.products as Array<Record<string, unknown>>).entries()) {
      expect(p).toMatchObject({ position: i + 1, currency: 'USD', rating: null });
      expect(p.title).toMatch(/^trail running shoes /);
      expect(p.price).toMatch(/^\$\d+\.\d\d$/);
      expect(p.url).toMatch(/^https:\/\/[^/]+\/p\//);
      expect(typeof p.merchant).toBe('string');
    }
    // The text ad first, then each sponsored shopping card.
    expect(res.ads[0]).toEqual({
      position: 1,
      title: 'trail running shoes — Official Store',
      url: 'https://ads.example.com/landing',
    });
    expect(res.ads.slice(1).map((a: { title: string }) => a.title)).toEqual(
      res.products.map((p: { title: string }) => p.title),
    );
    expect(res.places).toHaveLength(3);
    expect(res.places[0]).toMatchObject({
      position: 1,
      url: expect.stringMatching(/^https:\/\/www\.place\d+\.example\/$/),
    });
    for (const p of res.places as Array<Record<string, unknown>>) {
      expect(p.name).toMatch(/^trail running shoes /);
      expect(p.address).toMatch(/^\d+ \w+ (St|Rd|Ave)$/);
      expect(p.rating).toBeGreaterThanOrEqual(3);
    }
    // None of the cards is an organic result.
    const urls = (res.organic as Organic[]).map((o) => o.url);
    expect(urls.filter((u) => /\/p\/|place\d+\.example/.test(u))).toEqual([]);

    const serp = await runTask(svc, {
      taskType: 'SEARCH_A_SERP',
      payload: { query: 'trail running shoes sandbox:products sandbox:places', country: 'US' },
    });
    expect(serp.response.products).toEqual(res.products);
    expect(serp.response.places).toEqual(res.places);

    const off = await runTask(svc, {
      taskType: 'SEARCH_A',
      payload: {
        query: 'trail running shoes sandbox:products sandbox:places sandbox:noproducts sandbox:noads sandbox:noplaces',
        country: 'US',
      },
    });
    expect(off.task.status).toBe('COMPLETED');
    // The page could show each kind and shows none: empty, not null.
    expect(off.response).toMatchObject({ products: [], ads: [], places: [] });

    // Free listings without ads: products stay, nothing is sponsored.
    const free = await runTask(svc, {
      taskType: 'SEARCH_A',
      payload: { query: 'trail running shoes sandbox:products sandbox:noads', country: 'US' },
    });
    expect(free.response.products.length).toBeGreaterThanOrEqual(3);
    expect(free.response.ads).toEqual([]);

    // AI Mode's own product and local cards are not read yet: unknown, not none.
    const aim = await runTask(svc, { taskType: 'AIMODE', payload: { query: 'trail running shoes sandbox:products' } });
    expect(aim.response).toMatchObject({ products: null, ads: null, places: null });
  });

  it('AIMODE answers with markdown structure and sources', async () => {
    const r = await runTask(svc, { taskType: 'SEARCH_A_AIMODE', payload: { prompt: 'how to brew pour-over coffee' } });
    expect(r.task).toMatchObject({ taskType: 'AIMODE', status: 'COMPLETED' });
    const res = r.response;
    expect(res.markdown).toMatch(/^### /m);
    expect(res.markdown).toMatch(/^1\. /m);
    expect(res.text).not.toMatch(/###|\]\(/);
    expect(res.sources.length).toBeGreaterThanOrEqual(2);
    expect(res.sources.map((s: SourceView) => s.position)).toEqual(
      res.sources.map((_: SourceView, i: number) => i + 1),
    );
    expect(new Set(res.sources.map((s: SourceView) => s.url)).size).toBe(res.sources.length);
  });

  it('country KR sends hl=ko&gl=kr: the pages come back in Korean', async () => {
    const kr = await runTask(svc, {
      taskType: 'SEARCH_A',
      payload: { prompt: 'best budget laptops sandbox:aio', country: 'KR' },
    });
    const us = await runTask(svc, {
      taskType: 'SEARCH_A',
      payload: { prompt: 'best budget laptops sandbox:aio', country: 'US' },
    });
    expect(kr.response.aioverview.text).toMatch(/\p{Script=Hangul}/u);
    expect(us.response.aioverview.text).not.toMatch(/\p{Script=Hangul}/u);
    const ai = await runTask(svc, {
      taskType: 'AIMODE',
      payload: { prompt: 'how to brew pour-over coffee', country: 'KR' },
    });
    expect(ai.response.text).toMatch(/\p{Script=Hangul}/u);
  });

  it('sandbox:empty ends as ENGINE_NO_RESULT for every type', async () => {
    for (const taskType of ['SEARCH_A', 'SEARCH_A_SERP', 'AIMODE']) {
      const r = await runTask(svc, { taskType, payload: { query: `nothing here sandbox:empty` } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
    }
  });

  it('sandbox:flaky=1 completes after a retry', async () => {
    const r = await runTask(svc, { taskType: 'SEARCH_A', payload: { prompt: 'standing desks sandbox:flaky=1' } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.organic.length).toBeGreaterThan(0);
  });

  it('sandbox:error ends as ENGINE_FAILED', async () => {
    const r = await runTask(svc, { taskType: 'AIMODE', payload: { prompt: 'standing desks sandbox:error' } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED: /);
  });

  it('sandbox:captcha cools the exit address down on every attempt and fails with ENGINE_FAILED', async () => {
    const before = await blockedCount(svc);
    const r = await runTask(svc, {
      taskType: 'SEARCH_A',
      payload: { prompt: 'cheap flights sandbox:captcha', country: 'DE' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED: /);
    expect((await blockedCount(svc)) - before).toBe(3);
    const strikes = svc.app.pools.exits
      .list()
      .filter((x) => x.country === 'DE')
      .reduce((n, x) => n + [...x.cooldowns.values()].reduce((m, c) => m + c.strikes, 0), 0);
    expect(strikes).toBe(3);
  });
});

async function blockedCount(svc: RunningService): Promise<number> {
  const m = await svc.app.metrics.upstreamFailures.get();
  return m.values
    .filter((v) => v.labels.engine === 'SEARCH_A' && v.labels.kind === 'UPSTREAM_BLOCKED')
    .reduce((n, v) => n + v.value, 0);
}
