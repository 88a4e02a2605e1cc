import { describe, expect, it } from 'vitest';
import { nameMatcher } from '../../src/analysis/text/name-match.js';
import { withoutAddresses } from '../../src/analysis/text/visible-text.js';
import { answerFacts, mentions } from '../../src/analysis/visibility/index.js';
import { organicText } from '../../src/engines/search-a/organic-format.js';
import { serpResult } from '../../src/engines/search-b/serp-adapter.js';

/**
 * Mentions count what a reader sees (docs/analysis.md §6.1): a brand inside a web address (a results page's result
 * URL, a pasted link) is no mention; the same brand in the title or the snippet beside it is. The texts are made by
 * the engines' own formatters, as a monitor run reads them.
 */

const brooks = { name: 'Brooks', aliases: [], domains: [] };
const hoka = [{ name: 'Hoka', aliases: [], domains: [] }];

describe('mentions in what a reader sees, not in addresses', () => {
  it('SEARCH_A results: the title and snippet count, the result URL does not', () => {
    const text = organicText([
      {
        position: 1,
        url: 'https://www.runnersworld.com/gear/brooks-vs-hoka/1',
        title: 'Best daily trainers | Runner’s World',
        snippet: 'We tested Brooks against the field.',
        site: 'runnersworld.com',
      },
      {
        position: 2,
        url: 'https://example.com/reviews?brand=hoka&vs=brooks',
        title: 'Hoka review',
        snippet: 'Cushioned.',
        site: 'example.com',
      },
    ]);
    // Without the rule, Brooks would be named three times and Hoka three times.
    expect(text.match(/brooks/gi)).toHaveLength(3);
    const f = answerFacts({ text, sources: [] }, brooks, hoka);
    expect(f.brands.map((b) => [b.name, b.count, b.position])).toEqual([
      ['Brooks', 1, 1],
      ['Hoka', 1, 2],
    ]);
    const [b] = f.brands[0]?.mentions ?? [];
    expect(text.slice(b?.start, b?.end)).toBe('Brooks');
    expect(text.indexOf('We tested Brooks')).toBe((b?.start ?? 0) - 'We tested '.length);
  });

  it('SEARCH_B results: the same through its own formatter; a result with the brand only in its URL names none', () => {
    const r = serpResult(
      [
        {
          url: 'https://blog.example.org/brooks-ghost-16/',
          title: 'Daily trainers compared',
          snippet: 'Soft and fast.',
        },
        { url: 'http://www.hoka.com/en/us/', title: 'Official store', snippet: '' },
      ],
      1,
      {},
    );
    const f = answerFacts({ text: r.text, sources: [] }, brooks, hoka);
    expect([f.mentioned, f.firstMention, f.brands[1]?.count]).toEqual([false, null, 0]);
  });

  it('pasted links in an answer are not read; names written as words and bare domains are', () => {
    const text = 'Brooks (see https://x.test/brooks) beats www.hoka-fans.test/hoka on price; hoka.com disagrees.';
    expect(mentions(text, ['Brooks']).map((m) => text.slice(m.start, m.end))).toEqual(['Brooks']);
    expect(mentions(text, ['Hoka']).map((m) => m.start)).toEqual([text.indexOf('hoka.com')]);
  });

  it('Korean text: a Hangul brand in a percent-encoded or plain path is not counted', () => {
    const text = '나이키 러닝화 추천 — https://shop.test/나이키/1 — https://shop.test/%EB%82%98%EC%9D%B4%ED%82%A4';
    const f = answerFacts({ text, sources: [] }, { name: '나이키', aliases: ['Nike'], domains: [] });
    expect(f.brands[0]?.count).toBe(1);
  });

  it('the source-influence matcher (§2.11.2) skips addresses too', () => {
    const m = nameMatcher('Hoka');
    expect(m?.find('Read https://a.test/hoka-clifton and Hoka’s own page').length).toBe(1);
    expect(nameMatcher('로얄 캐닌')?.find('https://a.test/로얄캐닌 로얄 캐닌').length).toBe(1);
  });

  it('blanking keeps every offset', () => {
    const text = 'a https://x.test/é b www.y.test c';
    const blank = withoutAddresses(text);
    expect(blank).toHaveLength(text.length);
    expect(blank).toBe(`a ${' '.repeat(16)} b ${' '.repeat(10)} c`);
  });
});
