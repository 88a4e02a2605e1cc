import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineTaskType } from '../../src/domain/task-types.js';
import { runTask } from '../helpers/service.js';
import { startTappedService, type TappedService } from './tapped-service.js';
import type { TappedRequest } from './upstream-tap.js';

/**
 * The documented payload options (docs/contract.md#payload-members, #readers-by-url),
 * checked on what the upstream receives and on what the client gets back: `page` on the SERP
 * types, FORUM's `action` / `url` / `community` / `user`, SEARCH_B_SERP's `action=page`, the
 * `include` flags on engines that ignore them, and BAD_PAYLOAD strings that name the field.
 */
describe('payload options are honoured or ignored as documented', () => {
  let t: TappedService;
  beforeAll(async () => {
    t = await startTappedService();
  });
  afterAll(() => t.stop());

  const run = async (taskType: EngineTaskType, payload: Record<string, unknown>) =>
    t.tap.during(() => runTask(t.svc, { taskType, payload }));
  const completed = async (taskType: EngineTaskType, payload: Record<string, unknown>) => {
    const { result, requests } = await run(taskType, payload);
    expect(result.task.status, `${taskType} ${JSON.stringify(payload)}: ${result.error ?? ''}`).toBe('COMPLETED');
    return { response: result.response, requests };
  };
  const params = (r: TappedRequest | undefined) => new URL(r?.url ?? '/', 'http://tap').searchParams;
  const pathOf = (r: TappedRequest | undefined) => new URL(r?.url ?? '/', 'http://tap').pathname;

  it('SEARCH_A_SERP page 1..10 asks Google for start=(page-1)*10', async () => {
    for (const [page, start] of [
      [1, null],
      [3, '20'],
      [10, '90'],
    ] as const) {
      const { response, requests } = await completed('SEARCH_A_SERP', { query: 'trail shoes', page });
      expect(params(requests[0]).get('start'), `page ${page}`).toBe(start);
      expect(response.page).toBe(page);
      expect(response.organic[0].position).toBe((page - 1) * 10 + 1);
    }
  });

  it('SEARCH_B_SERP page 1..10 asks Naver for start=(page-1)*15+1', async () => {
    for (const [page, start] of [
      [1, ['1', null]],
      [2, ['16']],
      [10, ['136']],
    ] as const) {
      const { response, requests } = await completed('SEARCH_B_SERP', { query: '캠핑 장비', page });
      expect(start as readonly (string | null)[], `page ${page}`).toContain(params(requests[0]).get('start'));
      expect(response.page).toBe(page);
    }
  });

  it('SEARCH_B_SERP action=page reads the blog post named by payload.url from the blog host', async () => {
    const { requests } = await completed('SEARCH_B_SERP', {
      action: 'page',
      url: 'https://blog.naver.com/seoul_foodie/223456789012',
    });
    expect(requests.some((r) => r.url.startsWith('/naver-blog/') && r.url.includes('223456789012'))).toBe(true);
    expect(requests.some((r) => r.url.startsWith('/naver/'))).toBe(false);
  });

  it('FORUM: query with community, action read by url, feed with and without community, user_posts', async () => {
    const cases: Array<[Record<string, unknown>, (r: TappedRequest | undefined) => void]> = [
      [
        { query: 'grinder', community: 'r/espresso' },
        (r) => {
          expect(pathOf(r)).toBe('/reddit/r/espresso/search.json');
          expect(params(r).get('restrict_sr')).toBe('1');
          expect(params(r).get('q')).toBe('grinder');
        },
      ],
      [
        { query: 'grinder' },
        (r) => {
          expect(pathOf(r)).toBe('/reddit/search.json');
          expect(params(r).get('restrict_sr')).toBeNull();
        },
      ],
      [
        { action: 'read', url: 'https://redd.it/1k9x2q7' },
        (r) => expect(pathOf(r)).toBe('/reddit/comments/1k9x2q7.json'),
      ],
      [
        { url: 'https://www.reddit.com/r/espresso/comments/1k9x2q7/dialing_in/' },
        (r) => expect(pathOf(r)).toBe('/reddit/comments/1k9x2q7.json'),
      ],
      [{ action: 'feed' }, (r) => expect(pathOf(r)).toBe('/reddit/hot.json')],
      [{ action: 'feed', community: 'rust' }, (r) => expect(pathOf(r)).toBe('/reddit/r/rust/hot.json')],
      [{ action: 'user_posts', user: 'u/spez' }, (r) => expect(pathOf(r)).toBe('/reddit/user/spez/submitted.json')],
    ];
    for (const [payload, check] of cases) {
      const { requests } = await completed('FORUM', payload);
      check(requests[0]);
    }
  });

  it('engines without include flags ignore them all: no rawResponse, no html, markdown kept', async () => {
    const include = { markdown: false, rawResponse: true, html: true, screenshot: true };
    const cases: Array<[EngineTaskType, Record<string, unknown>]> = [
      ['ANSWER_ENGINE_A', { prompt: 'best hiking boots' }],
      ['AIMODE', { prompt: 'best hiking boots' }],
      ['SEARCH_C_SEARCH', { query: 'hiking boots' }],
      ['FORUM', { query: 'grinder' }],
    ];
    for (const [taskType, payload] of cases) {
      const { response } = await completed(taskType, { ...payload, include });
      expect(response, taskType).not.toHaveProperty('rawResponse');
      expect(response, taskType).not.toHaveProperty('html');
      expect(response, taskType).not.toHaveProperty('screenshot');
      expect(typeof response.markdown, taskType).toBe('string');
    }
  });

  it('ASSISTANT_A honours markdown and rawResponse but not html; an unknown flag is ignored everywhere', async () => {
    const a = await completed('ASSISTANT_A', {
      prompt: 'louvre opening hours',
      include: { markdown: false, rawResponse: true, html: true, screenshot: true },
    });
    expect(a.response).not.toHaveProperty('markdown');
    expect(a.response).toHaveProperty('rawResponse');
    expect(a.response).not.toHaveProperty('html');
    expect(a.response).not.toHaveProperty('screenshot');
    const c = await completed('CHATBOT_A', {
      prompt: 'louvre opening hours',
      include: { html: true, screenshot: true },
    });
    expect(typeof c.response.html).toBe('string');
    expect(c.response).not.toHaveProperty('screenshot');
  });

  it('BAD_PAYLOAD strings name the payload field to change', async () => {
    const cases: Array<[EngineTaskType, Record<string, unknown>, string]> = [
      ['FORUM', { action: 'read', url: 'https://example.com/r/x/comments/abc' }, 'payload.url'],
      ['FORUM', { url: 'https://www.reddit.com/r/espresso/' }, 'payload.url'],
      ['FORUM', { action: 'feed', community: 'not a community!' }, 'payload.community'],
      ['FORUM', { action: 'user_posts', user: 'x' }, 'payload.user'],
      ['WEB_SCRAPE', { url: 'https://exa mple.com/file' }, 'payload.url'],
      ['SEARCH_B_SERP', { action: 'page', url: 'https://example.com/post/1' }, 'payload.url'],
      ['SEARCH_B_SERP', { action: 'page', url: 'https://blog.naver.com/seoul_foodie' }, 'payload.url'],
    ];
    for (const [taskType, payload, field] of cases) {
      const { result, requests } = await run(taskType, payload);
      expect(result.task.status, `${taskType} ${JSON.stringify(payload)}`).toBe('FAILED');
      expect(result.error).toMatch(new RegExp(`^BAD_PAYLOAD: .*${field.replace('.', '\\.')}\\b`));
      // Refused before any upstream was asked.
      expect(requests, `${taskType} ${JSON.stringify(payload)}`).toHaveLength(0);
    }
    // A URL that is not http(s) at all is refused before queueing, naming the same field.
    const r = await t.svc.call('POST', '/v1/async/task', {
      taskType: 'WEB_SCRAPE',
      payload: { url: 'ftp://example.com/file' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([{ field: 'payload.url', message: expect.any(String) }]);
  });
});
