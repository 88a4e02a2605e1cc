import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineConfig } from '../../src/config/engine-config.js';
import { UpstreamFailure } from '../../src/domain/engine-errors.js';
import type { TaskPayload } from '../../src/domain/task.js';
import type { TaskType } from '../../src/domain/task-types.js';
import type { AttemptContext } from '../../src/engines/adapter.js';
import { searchBAiBrief } from '../../src/engines/search-b/ai-brief-adapter.js';
import { searchBAiTab } from '../../src/engines/search-b/ai-tab-adapter.js';
import { searchBSerp } from '../../src/engines/search-b/serp-adapter.js';
import { UndiciTransport, dispatcherFor } from '../../src/transport/undici-transport.js';
import { createLogger } from '../../src/ops/logger.js';
import { inlineParse } from '../../src/engines/parse-pool/pool.js';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * What the adapters put on the wire, observed by a real local HTTP server: URLs, Korean browser
 * headers, the blog fetch built from the configured base (never the client's host), and the
 * mapping of HTTP failures to failure kinds.
 */
describe('SEARCH_B requests', () => {
  const seen: Seen[] = [];
  let answer: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: '' };
  let server: http.Server;
  let base: string;
  const dispatcher = dispatcherFor({ id: 'test-exit', country: 'KR', maxConcurrent: 4 }, false);
  const transport = new UndiciTransport('test-exit', dispatcher, false);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8', ...answer.headers });
      res.end(answer.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await dispatcher.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  function ctx(taskType: TaskType, payload: TaskPayload, headers: Record<string, string> = {}): AttemptContext {
    const config: EngineConfig = {
      mode: 'anon',
      concurrency: 1,
      timeoutMs: 5000,
      maxAttempts: 1,
      credits: 1,
      neverServe: [],
      paused: false,
      upstream: { baseUrl: `${base}/search`, headers, options: { blogBaseUrl: `${base}/mblog` } },
    };
    return {
      taskId: 't1',
      tenant: 'default',
      taskType,
      payload,
      country: 'KR',
      config,
      http: transport,
      account: null,
      signal: AbortSignal.timeout(5000),
      parse: inlineParse(),
      log: createLogger('silent'),
      attempt: 1,
    };
  }

  async function kindOf(p: Promise<unknown>): Promise<string> {
    try {
      await p;
    } catch (e) {
      if (e instanceof UpstreamFailure) return e.kind;
      throw e;
    }
    return 'none';
  }

  it('asks the web tab with ssc, query and start=(page-1)*15+1 and Korean desktop headers', async () => {
    answer = {
      status: 200,
      body: '<html><body><div id="main_pack"><p>에 대한 검색결과가 없습니다</p></div></body></html>',
    };
    seen.length = 0;
    expect(await kindOf(searchBSerp.run(ctx('SEARCH_B_SERP', { query: '서울 맛집', page: 3 })))).toBe('NO_ANSWER');
    const u = new URL(seen[0]?.url ?? '', base);
    expect(u.pathname).toBe('/search/search.naver');
    expect(Object.fromEntries(u.searchParams)).toEqual({ ssc: 'tab.web.all', query: '서울 맛집', start: '31' });
    expect(seen[0]?.headers['accept-language']).toBe('ko-KR,ko;q=0.9');
    expect(seen[0]?.headers.referer).toBe('https://www.naver.com/');
    expect(seen[0]?.headers['user-agent']).toMatch(/Windows NT .* Chrome\//);
  });

  it('asks integrated search for the briefing and ssc=tab.ai.all for the AI tab; configured headers win', async () => {
    answer = { status: 200, body: '<html><body><div id="main_pack"></div></body></html>' };
    seen.length = 0;
    await kindOf(
      searchBAiBrief.run(ctx('SEARCH_B_AI_BRIEF', { prompt: '제주 여행' }, { 'User-Agent': 'custom-agent/1.0' })),
    );
    await kindOf(searchBAiTab.run(ctx('SEARCH_B_AI_TAB', { prompt: '제주 여행' })));
    const brief = new URL(seen[0]?.url ?? '', base);
    expect(brief.searchParams.get('where')).toBe('nexearch');
    expect(brief.searchParams.get('query')).toBe('제주 여행');
    expect(seen[0]?.headers['user-agent']).toBe('custom-agent/1.0');
    const tab = new URL(seen[1]?.url ?? '', base);
    expect(tab.searchParams.get('ssc')).toBe('tab.ai.all');
  });

  it('fetches a post from the configured mobile blog base, whatever host the client named', async () => {
    answer = { status: 404, body: 'not found' };
    seen.length = 0;
    const kind = await kindOf(
      searchBSerp.run(
        ctx('SEARCH_B_SERP', {
          action: 'page',
          url: 'https://blog.naver.com/PostView.naver?blogId=abc_1&logNo=223000111222',
        }),
      ),
    );
    expect(kind).toBe('PAGE_UNAVAILABLE');
    expect(seen[0]?.url).toBe('/mblog/abc_1/223000111222');
    expect(seen[0]?.headers['user-agent']).toMatch(/iPhone/);
  });

  it('maps 403 to UPSTREAM_BLOCKED, 429 to RATE_LIMITED with its Retry-After, 5xx to UPSTREAM_ERROR', async () => {
    answer = { status: 403, body: 'Forbidden' };
    expect(await kindOf(searchBSerp.run(ctx('SEARCH_B_SERP', { query: 'a' })))).toBe('UPSTREAM_BLOCKED');
    answer = { status: 429, body: 'Too Many Requests', headers: { 'retry-after': '7' } };
    const limited = await searchBSerp.run(ctx('SEARCH_B_SERP', { query: 'a' })).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(UpstreamFailure);
    expect((limited as UpstreamFailure).kind).toBe('RATE_LIMITED');
    expect((limited as UpstreamFailure).retryAfterMs).toBe(7000);
    answer = { status: 502, body: 'Bad Gateway' };
    expect(await kindOf(searchBAiTab.run(ctx('SEARCH_B_AI_TAB', { prompt: 'a' })))).toBe('UPSTREAM_ERROR');
  });
});
