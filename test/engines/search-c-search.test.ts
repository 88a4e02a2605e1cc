import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

interface Result {
  position: number;
  url: string;
  title: string;
  snippet: string;
  site: string;
}

describe('SEARCH_C_SEARCH through the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    // The page is parsed in the parse pool, whose threads run at nice 19: beside other test files on a busy
    // machine a parse can take seconds, so the attempts here have time enough (the timeout has its own service).
    svc = await startService({ AEQ_CONFIG: fastRetries(), AEQ_ENGINE_TIMEOUT_MS: '20000' });
  });
  afterAll(() => svc.stop());

  it('completes page 1 with ten ranked results as sources and a numbered list', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: 'best running shoes', country: 'US' },
    });
    expect(r.task.status, r.error).toBe('COMPLETED');
    const results = r.response.results as Result[];
    expect(results.map((x) => x.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.response.page).toBe(1);
    for (const x of results) {
      // Links come unwrapped from /ck/a; the sponsored item is not among them.
      expect(x.url).toMatch(/^https:\/\/[a-z.]+\.(com|org|net|dev|kr)\/best-running-shoes-\d+$/);
      expect(x.title).toMatch(/^best running shoes — source \d+$/);
      expect(x.snippet).toMatch(/^best running shoes /);
      expect(x.site).toBe(new URL(x.url).hostname);
    }
    expect(r.response.sources).toEqual(results.map((x) => ({ position: x.position, url: x.url, label: x.title })));
    expect(r.response.markdown).toMatch(/^1\. \[best running shoes — source \d+\]\(https:\/\//);
    expect(r.response.text).toMatch(/^1\. best running shoes — source \d+\n {3}https:\/\//);
    expect(r.credits).toEqual({ creditsToCharge: 1, creditsCharged: 1 });
  });

  it('numbers page 2 from 11 to 20, in a Korean market as well', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: '무선 이어폰 추천', country: 'KR', page: 2 },
    });
    expect(r.task.status, r.error).toBe('COMPLETED');
    expect((r.response.results as Result[]).map((x) => x.position)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(r.response.sources[0].position).toBe(11);
    expect(r.response.page).toBe(2);
    expect((r.response.results as Result[])[0]?.snippet).toMatch(/[가-힣]/);
  });

  it('fails with ENGINE_NO_RESULT on the no-results page', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: 'zxqv sandbox:empty', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
  });

  it('fails with ENGINE_FAILED when every attempt meets the captcha interstitial', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: 'shoes sandbox:captcha', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED: /);
  });

  it('completes after one 5xx with flaky=1', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: 'hiking boots sandbox:flaky=1', country: 'US' },
    });
    expect(r.task.status, r.error).toBe('COMPLETED');
    expect(r.response.results).toHaveLength(10);
  });

  it('fails with ENGINE_FAILED when the upstream keeps answering 5xx', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: 'boots sandbox:error', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED: /);
  });

  it.each(['SEARCH_C', 'SEARCH_C_ASSISTANT_SEARCH'])(
    'accepts the alias %s and echoes SEARCH_C_SEARCH',
    async (alias) => {
      const r = await runTask(svc, { taskType: alias, payload: { prompt: 'trail shoes', country: 'GB' } });
      expect(r.task.taskType).toBe('SEARCH_C_SEARCH');
      expect(r.task.status, r.error).toBe('COMPLETED');
    },
  );
});

describe('SEARCH_C_SEARCH with a short attempt timeout', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastRetries(), AEQ_ENGINE_TIMEOUT_MS: '1000' });
  });
  afterAll(() => svc.stop());

  it('fails with ENGINE_TIMEOUT when the upstream never answers', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_SEARCH',
      payload: { query: 'slow sandbox:timeout', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_TIMEOUT: /);
  });
});

function fastRetries(): string {
  return writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });
}
