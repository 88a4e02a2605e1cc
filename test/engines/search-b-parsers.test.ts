import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { UpstreamFailureKind } from '../../src/domain/engine-errors.js';
import { parseAiBriefing } from '../../src/engines/search-b/ai-brief-parser.js';
import { parseAiTab } from '../../src/engines/search-b/ai-tab-parser.js';
import { parseBlogPost } from '../../src/engines/search-b/blog-post-parser.js';
import { parseNaverPageUrl } from '../../src/engines/search-b/naver-page-url.js';
import { serpResult } from '../../src/engines/search-b/serp-adapter.js';
import { parseWebResults } from '../../src/engines/search-b/web-results-parser.js';
import { failureOf } from '../helpers/failures.js';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/search-b/${name}`, import.meta.url), 'utf8');

const kindOf = (fn: () => unknown): UpstreamFailureKind => failureOf(fn).kind;

describe('Naver web results parser', () => {
  it(
    'reads page 1: 15 results in data-url order, ' +
      'ads and keep links excluded, trackers unwrapped, duplicates dropped',
    () => {
      const { tier, results } = parseWebResults(fixture('web-page1.html'));
      expect(tier).toBe('fds');
      expect(results).toHaveLength(15);
      expect(results[0]).toEqual({
        url: 'https://www.visitseoul.net/food/list',
        title: '서울 공식 관광정보 - 맛집 모음',
        snippet: '서울시가 추천하는 지역별 맛집과 전통시장 먹거리를 한눈에 볼 수 있습니다.',
      });
      // Item 2's title link goes through search.naver.com/p/crd/rd; the source is the target.
      expect(results[1]?.url).toBe('https://blog.naver.com/seoul_foodie/223456789012');
      const urls = results.map((r) => r.url);
      expect(new Set(urls).size).toBe(15);
      expect(urls.some((u) => /ader\.naver\.com|ad\.example\.com|keep\.naver\.com|search\.naver\.com/.test(u))).toBe(
        false,
      );
      expect(results[14]?.title).toBe('서울 전통시장 먹거리 여행');
    },
  );

  it('numbers page 2 from 16 to 30 with the same results in extra', () => {
    const { results } = parseWebResults(fixture('web-page2.html'));
    expect(results).toHaveLength(15);
    const r = serpResult(results, 2, {});
    expect(r.sources.map((s) => s.position)).toEqual(Array.from({ length: 15 }, (_, i) => 16 + i));
    expect(r.sources[0]).toEqual({
      position: 16,
      url: 'https://www.example.net/seoul/cold-noodles',
      label: '서울 평양냉면 맛집 비교',
    });
    expect(r.markdown.split('\n')[0]).toBe('16. [서울 평양냉면 맛집 비교](https://www.example.net/seoul/cold-noodles)');
    expect(r.text).toMatch(/^16\. 서울 평양냉면 맛집 비교 — https:\/\/www\.example\.net\/seoul\/cold-noodles\n/);
    const extra = r.extra as {
      page: number;
      results: Array<{ position: number; url: string; title: string; snippet: string }>;
    };
    expect(extra.page).toBe(2);
    expect(extra.results[14]).toMatchObject({ position: 30, title: '서울 숨은 맛집 10곳 (현지인 추천)' });
  });

  it('falls back to the legacy markup and says so', () => {
    const { tier, results } = parseWebResults(fixture('web-legacy.html'));
    expect(tier).toBe('legacy');
    expect(results).toHaveLength(6);
    expect(results[2]).toEqual({
      url: 'https://www.mangoplate.com/top_lists/seoul',
      title: '서울 맛집 TOP 100 | 망고플레이트',
      snippet: '사용자 평점 기준 서울 인기 식당 100곳을 소개합니다.',
    });
  });

  it('classifies block, empty and drifted pages', () => {
    expect(kindOf(() => parseWebResults(fixture('block-page.html')))).toBe('UPSTREAM_BLOCKED');
    expect(kindOf(() => parseWebResults(fixture('no-results.html')))).toBe('NO_ANSWER');
    expect(kindOf(() => parseWebResults(fixture('web-drifted.html')))).toBe('LAYOUT_CHANGED');
  });

  it('does not mistake results about captchas for a block page', () => {
    const html = fixture('web-page2.html').replace('서울 평양냉면 맛집 비교', '자동입력 방지 문자 우회 방법');
    expect(parseWebResults(html).results[0]?.title).toBe('자동입력 방지 문자 우회 방법');
  });

  it('parses a page whose results are there despite a block marker outside them, and notes the marker', () => {
    const clean = parseWebResults(fixture('web-page1.html'));
    expect(clean.walls).toEqual([]);
    const html = fixture('web-page1.html').replace(
      '<body>',
      '<body><div class="notice">자동입력 방지 문자를 입력해 주세요</div>',
    );
    const marked = parseWebResults(html);
    expect(marked.walls).toEqual(['block_marker']);
    expect(marked.results).toEqual(clean.results);
  });
});

describe('Naver AI briefing parser', () => {
  it('reads the briefing prose with [n] markers and sources by first appearance', () => {
    const r = parseAiBriefing(fixture('integrated-with-brief.html'));
    expect(r.sources).toEqual([
      { position: 1, url: 'https://blog.naver.com/seoul_foodie/223456789012', label: '2026 서울 맛집 총정리 (동네별)' },
      { position: 2, url: 'https://www.visitseoul.net/food/list', label: '서울 공식 관광정보 - 맛집 모음' },
      { position: 3, url: 'https://blog.naver.com/dailycook/223388877766', label: '종로 노포 맛집 5곳 솔직 후기' },
      { position: 4, url: 'https://blog.naver.com/tripnote/223401112233', label: '성수동 브런치 카페 & 맛집 코스' },
      { position: 5, url: 'https://www.mangoplate.com/top_lists/seoul', label: '서울 맛집 TOP 100 | 망고플레이트' },
    ]);
    expect(r.markdown).toBe(
      [
        '서울의 맛집은 지역마다 특색이 뚜렷하며, 을지로와 성수동은 노포와 신생 식당이 함께 있는 곳으로 꼽힙니다.[1]',
        '',
        '평양냉면과 설렁탕 같은 전통 메뉴는 종로와 중구의 오래된 식당에서 맛볼 수 있습니다.[2][3]',
        '',
        '- **을지로**: 노포와 감성 주점이 많습니다.[1]',
        '- **성수동**: 브런치 카페와 팝업 식당이 모여 있습니다.[4]',
      ].join('\n'),
    );
    expect(r.text).not.toMatch(/\[\d\]|\*\*/);
    expect(r.text).toContain('을지로: 노포와 감성 주점이 많습니다.');
    expect(r.raw).toMatchObject({ tier: 'heading-text', label: 'AI 브리핑' });
    expect(String(r.raw.assumption)).toMatch(/unverified/);
  });

  it('is NO_ANSWER on a normal page without a briefing and on the no-results page', () => {
    expect(kindOf(() => parseAiBriefing(fixture('integrated-no-brief.html')))).toBe('NO_ANSWER');
    expect(kindOf(() => parseAiBriefing(fixture('no-results.html')))).toBe('NO_ANSWER');
  });

  it('is UPSTREAM_BLOCKED on the block page and LAYOUT_CHANGED on a drifted page', () => {
    expect(kindOf(() => parseAiBriefing(fixture('block-page.html')))).toBe('UPSTREAM_BLOCKED');
    expect(kindOf(() => parseAiBriefing(fixture('integrated-drifted.html')))).toBe('LAYOUT_CHANGED');
  });

  it('is LAYOUT_CHANGED when the label is there but its prose is gone', () => {
    const html = fixture('integrated-with-brief.html').replace(
      /<div class="fds-summary-body">[\s\S]*?<\/ul>\s*<\/div>/,
      '<div class="fds-summary-body"></div>',
    );
    expect(kindOf(() => parseAiBriefing(html))).toBe('LAYOUT_CHANGED');
  });
});

describe('Naver AI tab parser', () => {
  it('reads the assistant turn (tier 1) with citations, an ordered list and uncited references', () => {
    const r = parseAiTab(fixture('ai-tab.html'));
    expect(r.raw.tier).toBe('assistant-turn');
    expect(r.markdown).toBe(
      [
        '제주도 2박 3일 여름 일정은 동쪽과 서쪽을 나누어 이동 시간을 줄이는 것이 좋습니다.[1]',
        '',
        '### 추천 일정',
        '',
        '1. 첫째 날: 공항 도착 후 애월 해안도로와 협재 해수욕장을 둘러봅니다.[2]',
        '2. 둘째 날: 성산일출봉 일출을 보고 우도를 다녀옵니다.[1]',
        '3. 셋째 날: 동문시장에서 기념품을 사고 공항으로 이동합니다.',
        '',
        '숙소는 네이버 예약[3]에서 미리 비교해 보세요.',
      ].join('\n'),
    );
    expect(r.sources.map((s) => [s.position, s.url, s.label])).toEqual([
      [1, 'https://blog.naver.com/jeju_trip/223512345678', '제주 2박3일 여름 여행 코스 총정리'],
      [2, 'https://www.visitjeju.net/kr/detail/view?contentsid=CONT_000000000500685', '성산일출봉 - 비짓제주'],
      [3, 'https://booking.naver.com/booking/3/bizes/123456', '네이버 예약'],
      [4, 'https://news.example.co.kr/article/2026/07/jeju-summer', '올여름 제주 관광객 역대 최다 전망'],
    ]);
    // The user's question is not part of the answer.
    expect(r.markdown).not.toContain('여름휴가 제주도 2박 3일 일정');
  });

  it('falls back to the "AI 답변" heading (tier 2)', () => {
    const r = parseAiTab(fixture('ai-tab-heading-only.html'));
    expect(r.raw.tier).toBe('heading-text');
    expect(r.sources[0]?.url).toBe('https://blog.naver.com/jeju_trip/223512345678');
    expect(r.markdown).toContain('### 추천 일정');
  });

  it('classifies block, empty and drifted pages', () => {
    expect(kindOf(() => parseAiTab(fixture('block-page.html')))).toBe('UPSTREAM_BLOCKED');
    expect(kindOf(() => parseAiTab(fixture('no-results.html')))).toBe('NO_ANSWER');
    expect(kindOf(() => parseAiTab(fixture('integrated-no-brief.html')))).toBe('LAYOUT_CHANGED');
  });
});

describe('Naver blog post parser', () => {
  it('turns a SmartEditor ONE post into Markdown with real image URLs', () => {
    const post = parseBlogPost(fixture('blog-post.html'));
    expect(post.tier).toBe('smarteditor-one');
    expect(post.title).toBe('서울 맛집 정리');
    expect(post.publishedAt).toBe('2026-07-01T10:30:00+09:00');
    expect(post.images).toEqual([
      {
        url: 'https://postfiles.pstatic.net/MjAyNjA3MDFfMTAw/abc.jpg?type=w773',
        caption: '을지로 골목 입구',
        width: 1200,
        height: 800,
      },
      { url: 'https://postfiles.pstatic.net/MjAyNjA3MDFfMjAw/def.jpg?type=w773', width: 900, height: 1200 },
      { url: 'https://postfiles.pstatic.net/MjAyNjA3MDFfMzAw/ghi.jpg?type=w773' },
    ]);
    expect(post.bodyMarkdown).toBe(
      [
        '첫 문단입니다. 이번 주말에 다녀온 **을지로** 맛집을 정리했어요.',
        '',
        '자세한 위치는 [네이버 지도](https://map.naver.com/p/entry/place/1234567)에서 확인하세요.',
        '',
        '## 1. 을지로 노포',
        '',
        '![을지로 골목 입구](https://postfiles.pstatic.net/MjAyNjA3MDFfMTAw/abc.jpg?type=w773)',
        '',
        '- 영업시간: 11:00 ~ 21:00\n- 대표 메뉴: 평양냉면, 수육',
        '',
        '> 육수가 정말 깔끔했어요.\n> — 같이 간 친구',
        '',
        '![](https://postfiles.pstatic.net/MjAyNjA3MDFfMjAw/def.jpg?type=w773)',
        '',
        '![](https://postfiles.pstatic.net/MjAyNjA3MDFfMzAw/ghi.jpg?type=w773)',
        '',
        '[서울 공식 관광정보 - 맛집 모음](https://www.visitseoul.net/food/list)',
        '',
        '---',
        '',
        '| 메뉴 | 가격 |\n| --- | --- |\n| 평양냉면 | 15,000원 |',
        '',
        '다음 글에서는 성수동 맛집을 소개할게요. 🍜',
      ].join('\n'),
    );
    expect(post.bodyMarkdown).not.toContain('w80_blur');
  });

  it('reads an older SmartEditor 2 post through Turndown', () => {
    const post = parseBlogPost(fixture('blog-post-se2.html'));
    expect(post.tier).toBe('smarteditor-2');
    expect(post.title).toBe('한강 자전거 코스');
    expect(post.bodyMarkdown).toContain('**한강 자전거**');
    expect(post.images).toEqual([
      { url: 'https://postfiles.pstatic.net/20180501_1/bike.jpg?type=w966', caption: '반포대교' },
    ]);
    expect(post.publishedAt).toBe('2018-05-01T09:05:00+09:00');
  });

  it('is PAGE_UNAVAILABLE with a message for private/deleted posts and sign-in walls', () => {
    const priv = failureOf(() => parseBlogPost(fixture('blog-private.html')));
    expect(priv.kind).toBe('PAGE_UNAVAILABLE');
    expect(priv.clientMessage).toMatch(/private or has been deleted.*pass the URL of a public post/);
    const wall = failureOf(() => parseBlogPost(fixture('cafe-login-wall.html')));
    expect(wall.kind).toBe('PAGE_UNAVAILABLE');
    expect(wall.clientMessage).toMatch(/signed-in/);
  });

  it('is UPSTREAM_BLOCKED on the block page and LAYOUT_CHANGED without a body or a notice', () => {
    expect(kindOf(() => parseBlogPost(fixture('block-page.html')))).toBe('UPSTREAM_BLOCKED');
    const drifted = fixture('blog-post.html').replaceAll('se-main-container', 'se-body-v3');
    expect(kindOf(() => parseBlogPost(drifted))).toBe('LAYOUT_CHANGED');
  });
});

describe('Naver page URL', () => {
  it('accepts the desktop, mobile and PostView forms and keeps only the ids', () => {
    const want = {
      blogId: 'seoul_foodie',
      logNo: '223456789012',
      canonicalUrl: 'https://blog.naver.com/seoul_foodie/223456789012',
    };
    expect(parseNaverPageUrl('https://blog.naver.com/seoul_foodie/223456789012')).toEqual(want);
    expect(parseNaverPageUrl('https://m.blog.naver.com/seoul_foodie/223456789012?referrerCode=1')).toEqual(want);
    expect(
      parseNaverPageUrl('https://blog.naver.com/PostView.naver?blogId=seoul_foodie&logNo=223456789012&redirect=Dlog'),
    ).toEqual(want);
    expect(parseNaverPageUrl('http://blog.naver.com/PostView.nhn?blogId=seoul_foodie&logNo=223456789012')).toEqual(
      want,
    );
  });

  it('refuses other sites and non-post Naver URLs with BAD_PAYLOAD, and cafes with PAGE_UNAVAILABLE', () => {
    const other = failureOf(() => parseNaverPageUrl('https://example.com/post/1'));
    expect(other.kind).toBe('BAD_PAYLOAD');
    expect(other.clientMessage).toMatch(/Naver.*WEB_SCRAPE/);
    expect(kindOf(() => parseNaverPageUrl('https://blog.naver.com/seoul_foodie'))).toBe('BAD_PAYLOAD');
    expect(kindOf(() => parseNaverPageUrl('https://evilnaver.com/a/223456789012'))).toBe('BAD_PAYLOAD');
    expect(kindOf(() => parseNaverPageUrl('not a url'))).toBe('BAD_PAYLOAD');
    const cafe = failureOf(() => parseNaverPageUrl('https://cafe.naver.com/matjiptour/12345'));
    expect(cafe.kind).toBe('PAGE_UNAVAILABLE');
    expect(cafe.clientMessage).toMatch(/cafe members only.*blog post/);
  });
});
