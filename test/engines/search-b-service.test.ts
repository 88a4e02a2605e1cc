import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

interface Src {
  position: number;
  url: string;
  label: string;
}

/** SEARCH_B_* end to end: the real service, the real adapters and the simulated Naver over HTTP. */
describe('SEARCH_B family through the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    // Fast retries so the captcha case (every attempt blocked) ends quickly.
    const config = writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });
    svc = await startService({ AEQ_CONFIG: config });
  });
  afterAll(() => svc.stop());

  describe('SEARCH_B_AI_BRIEF', () => {
    it('answers a Korean prompt with cited Korean prose', async () => {
      const r = await runTask(svc, { taskType: 'SEARCH_B_AI_BRIEF', payload: { prompt: '서울 맛집 추천' } });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.task.taskType).toBe('SEARCH_B_AI_BRIEF');
      expect(r.response.text).toMatch(/\p{Script=Hangul}/u);
      expect(r.response.markdown).toMatch(/\[1\]/);
      expect(r.response.markdown).toMatch(/\[2\]\[3\]/);
      const sources = r.response.sources as Src[];
      expect(sources.map((s) => s.position)).toEqual([1, 2, 3, 4]);
      expect(sources[0]?.url).toMatch(/^https:\/\/blog\.naver\.com\/[\w-]+\/\d+$/);
      expect(sources.every((s) => !/search\.naver\.com|keep\.naver\.com/.test(s.url))).toBe(true);
      expect(r.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
    });

    it('is served under the deprecated alias SEARCH_B and echoed canonically', async () => {
      const r = await runTask(svc, { taskType: 'SEARCH_B', payload: { query: 'best running shoes' } });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.task.taskType).toBe('SEARCH_B_AI_BRIEF');
    });

    it('ends ENGINE_NO_RESULT when the page has no briefing or no results', async () => {
      const noBrief = await runTask(svc, { taskType: 'SEARCH_B_AI_BRIEF', payload: { prompt: '네이버 홈페이지' } });
      expect(noBrief.task.status).toBe('FAILED');
      expect(noBrief.error).toMatch(/^ENGINE_NO_RESULT: /);
      const empty = await runTask(svc, {
        taskType: 'SEARCH_B_AI_BRIEF',
        payload: { prompt: '서울 맛집 sandbox:empty' },
      });
      expect(empty.error).toMatch(/^ENGINE_NO_RESULT: /);
      expect(empty.credits.creditsCharged).toBe(0);
    });

    it('ends ENGINE_FAILED when every attempt meets the block page', async () => {
      const r = await runTask(svc, { taskType: 'SEARCH_B_AI_BRIEF', payload: { prompt: '서울 맛집 sandbox:captcha' } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_FAILED: /);
    });
  });

  describe('SEARCH_B_AI_TAB', () => {
    it('answers with headings, a numbered list and sources', async () => {
      const r = await runTask(svc, { taskType: 'SEARCH_B_AI_TAB', payload: { prompt: '제주도 여름 여행 일정' } });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.response.markdown).toContain('### 핵심 정리');
      expect(r.response.markdown).toMatch(/^1\. .*\[\d\]$/m);
      expect(r.response.text).not.toMatch(/\[\d\]/);
      const sources = r.response.sources as Src[];
      expect(sources.map((s) => s.position)).toEqual([1, 2, 3, 4]);
      expect(sources.every((s) => s.label.length > 0)).toBe(true);
    });

    it('ends ENGINE_NO_RESULT on an empty answer and recovers from a flaky upstream', async () => {
      const empty = await runTask(svc, { taskType: 'SEARCH_B_AI_TAB', payload: { prompt: 'anything sandbox:empty' } });
      expect(empty.error).toMatch(/^ENGINE_NO_RESULT: /);
      const flaky = await runTask(svc, {
        taskType: 'SEARCH_B_AI_TAB',
        payload: { prompt: 'camping gear sandbox:flaky=1' },
      });
      expect(flaky.task.status).toBe('COMPLETED');
    });
  });

  describe('SEARCH_B_SERP', () => {
    it('lists page 1 as positions 1..15 and page 2 as 16..30', async () => {
      const p1 = await runTask(svc, { taskType: 'SEARCH_B_SERP', payload: { query: '캠핑 장비 추천' } });
      const p2 = await runTask(svc, { taskType: 'SEARCH_B_SERP', payload: { query: '캠핑 장비 추천', page: 2 } });
      expect(p1.task.status).toBe('COMPLETED');
      expect(p2.task.status).toBe('COMPLETED');
      const s1 = p1.response.sources as Src[];
      const s2 = p2.response.sources as Src[];
      expect(s1.map((s) => s.position)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(s2.map((s) => s.position)).toEqual(Array.from({ length: 15 }, (_, i) => i + 16));
      expect(p2.response.page).toBe(2);
      expect(p2.response.results).toHaveLength(15);
      expect(p2.response.results[0]).toMatchObject({ position: 16, url: s2[0]?.url, title: s2[0]?.label });
      expect(p2.response.results[0].snippet).toMatch(/\p{Script=Hangul}/u);
      expect(p2.response.markdown.split('\n')[0]).toMatch(/^16\. \[.+\]\(https:\/\/.+\)$/);
      // Page order differs between pages, ads, bookmarks and trackers never appear.
      expect(new Set([...s1, ...s2].map((s) => s.url)).size).toBe(30);
      expect([...s1, ...s2].some((s) => /ader\.naver\.com|keep\.naver\.com|search\.naver\.com/.test(s.url))).toBe(
        false,
      );
    });

    it('ends ENGINE_NO_RESULT on the no-results page and ENGINE_FAILED on the block page', async () => {
      const empty = await runTask(svc, { taskType: 'SEARCH_B_SERP', payload: { query: 'x sandbox:empty' } });
      expect(empty.error).toMatch(/^ENGINE_NO_RESULT: /);
      const blocked = await runTask(svc, {
        taskType: 'SEARCH_B_SERP',
        payload: { query: 'x sandbox:captcha', page: 3 },
      });
      expect(blocked.error).toMatch(/^ENGINE_FAILED: /);
    });
  });

  describe('SEARCH_B_SERP action=page', () => {
    it('reads a blog post found in the results, as Markdown with its images', async () => {
      let blogUrl: string | undefined;
      for (const query of ['서울 맛집', '제주 여행', '캠핑 장비 추천']) {
        const serp = await runTask(svc, { taskType: 'SEARCH_B_SERP', payload: { query } });
        blogUrl = (serp.response.sources as Src[]).find((s) => s.url.startsWith('https://blog.naver.com/'))?.url;
        if (blogUrl) break;
      }
      expect(blogUrl).toBeDefined();
      const r = await runTask(svc, { taskType: 'SEARCH_B_SERP', payload: { action: 'page', url: blogUrl } });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.response.markdown).toMatch(/^# .+ 정리\n\n/);
      expect(r.response.markdown).toContain('## ');
      expect(r.response.markdown).toMatch(/!\[[^\]]*\]\(https:\/\/postfiles\.pstatic\.net\/.+\?type=w773\)/);
      expect(r.response.markdown).not.toContain('w80_blur');
      expect(r.response.sources).toEqual([{ position: 1, url: blogUrl, label: r.response.title }]);
      expect(r.response.images).toHaveLength(2);
      expect(r.response.images[0]).toMatchObject({ width: 1200, height: 800 });
      expect(r.response.publishedAt).toMatch(/^2026-\d{2}-\d{2}T10:30:00\+09:00$/);
    });

    it('accepts the PostView and mobile forms and reports the canonical URL', async () => {
      const canonical = 'https://blog.naver.com/campinglife/223512345678';
      for (const url of [
        'https://blog.naver.com/PostView.naver?blogId=campinglife&logNo=223512345678',
        'https://m.blog.naver.com/campinglife/223512345678',
      ]) {
        const r = await runTask(svc, { taskType: 'SEARCH_B_SERP', payload: { action: 'page', url } });
        expect(r.task.status).toBe('COMPLETED');
        expect(r.response.sources[0].url).toBe(canonical);
      }
    });

    it('fails PAGE_UNAVAILABLE, saying what to change, for private posts, sign-in walls and cafes', async () => {
      const priv = await runTask(svc, {
        taskType: 'SEARCH_B_SERP',
        payload: { action: 'page', url: 'https://blog.naver.com/seoul_foodie/223456780000' },
      });
      expect(priv.task.status).toBe('FAILED');
      expect(priv.error).toMatch(
        /^PAGE_UNAVAILABLE: The blog post is private or has been deleted.*pass the URL of a public post\.$/,
      );
      expect(priv.credits.creditsCharged).toBe(0);
      const neighbours = await runTask(svc, {
        taskType: 'SEARCH_B_SERP',
        payload: { action: 'page', url: 'https://blog.naver.com/seoul_foodie/223456789999' },
      });
      expect(neighbours.error).toMatch(/^PAGE_UNAVAILABLE: .*signed-in/);
      const cafe = await runTask(svc, {
        taskType: 'SEARCH_B_SERP',
        payload: { action: 'page', url: 'https://cafe.naver.com/matjiptour/12345' },
      });
      expect(cafe.error).toMatch(/^PAGE_UNAVAILABLE: Naver cafe posts .*pass the URL of a public blog post/);
    });

    it('fails BAD_PAYLOAD with a message for URLs outside Naver or not naming a post', async () => {
      const other = await runTask(svc, {
        taskType: 'SEARCH_B_SERP',
        payload: { action: 'page', url: 'https://example.com/post/1' },
      });
      expect(other.task.status).toBe('FAILED');
      expect(other.error).toMatch(/^BAD_PAYLOAD: payload\.url must be a page of Naver.*WEB_SCRAPE/);
      const blogHome = await runTask(svc, {
        taskType: 'SEARCH_B_SERP',
        payload: { action: 'page', url: 'https://blog.naver.com/seoul_foodie' },
      });
      expect(blogHome.error).toMatch(/^BAD_PAYLOAD: payload\.url must name one blog post/);
    });
  });
});
