import { describe, expect, it } from 'vitest';
import { clusteredProportion } from '../../src/analysis/visibility/intervals.js';
import { visibilityMetrics } from '../../src/analysis/visibility/index.js';
import type { RunAnswer } from '../../src/analysis/visibility/types.js';

/**
 * Search rate, citation rate and retrieval rate (docs/analysis.md §6.9), worked by hand on small groups: an engine
 * that cannot tell is left out of the denominator, never counted as "no".
 */
const brand = { name: 'Acme', aliases: [], domains: ['acme.com'] };

function answered(
  prompt: string,
  cited: string[],
  searched: boolean | null | undefined,
  retrieved: string[] | null | undefined,
): RunAnswer {
  return {
    status: 'answered',
    prompt,
    answer: {
      text: `An answer about ${prompt}.`,
      sources: cited.map((url) => ({ url })),
      searchTriggered: searched,
      retrievedSources: retrieved === null || retrieved === undefined ? retrieved : retrieved.map((url) => ({ url })),
    },
  };
}

describe('search, citation and retrieval rates (§6.9)', () => {
  const group: RunAnswer[] = [
    // p1: searched, cites acme.com, also read wiki.org without citing it
    answered('p1', ['https://www.acme.com/a'], true, ['https://en.wiki.org/x']),
    // p2: searched, cites wiki.org and news.com, read nothing beyond
    answered('p2', ['https://wiki.org/y', 'https://news.com/z'], true, []),
    // p3: answered from memory
    answered('p3', [], false, []),
    // p4: an engine that says nothing of either: out of both denominators
    answered('p4', ['https://news.com/q'], null, null),
    { status: 'failed' },
  ];
  const m = visibilityMetrics(group, brand);

  it('search rate: searched over the answers whose engine says', () => {
    expect(m.counts.searchKnown).toBe(3);
    expect(m.counts.searchedAnswers).toBe(2);
    expect(m.searchRate).toBe(0.6667);
    // One answer per prompt: the interval is plain Wilson on 2 of 3.
    const perPrompt = [
      { hits: 1, trials: 1 },
      { hits: 1, trials: 1 },
      { hits: 0, trials: 1 },
    ];
    expect(m.intervals.searchRate).toEqual(clusteredProportion(perPrompt).interval);
    expect(m.intervals.searchRate?.low).toBeCloseTo(0.2077, 3);
    expect(m.intervals.searchRate?.high).toBeCloseTo(0.9385, 3);
  });

  it('citation rate: answers citing the domain over all answers', () => {
    const news = m.topCitedDomains.find((d) => d.domain === 'news.com');
    expect(news?.answers).toBe(2);
    expect(news?.citationRate).toBe(0.5);
    const acme = m.topCitedDomains.find((d) => d.domain === 'acme.com');
    expect(acme?.citationRate).toBe(0.25);
    expect(acme?.owner).toBe('Acme');
  });

  it('retrieval rate: answers that read the domain, cited or not, over those whose engine lists what it read', () => {
    expect(m.counts.retrievalKnown).toBe(3);
    const wiki = m.topRetrievedDomains.find((d) => d.domain === 'wiki.org');
    // p1 read it without citing, p2 cited it: 2 of the 3 answers that list what they read.
    expect(wiki).toMatchObject({ answers: 2, citedAnswers: 1, retrievalRate: 0.6667 });
    expect(wiki?.retrievalRateInterval).toEqual(m.intervals.searchRate);
    // news.com is cited by p2 (known) and p4 (unknown): only p2 counts for its retrieval rate.
    const cited = m.topCitedDomains.find((d) => d.domain === 'news.com');
    expect(cited?.retrievalRate).toBe(0.3333);
    expect(m.topRetrievedDomains.map((d) => d.domain)).toEqual(['wiki.org', 'acme.com', 'news.com']);
    expect(m.topRetrievedDomains.find((d) => d.domain === 'acme.com')?.owner).toBe('Acme');
  });

  it('an engine that tells neither gives nulls, never zeros', () => {
    const silent = visibilityMetrics([answered('p1', ['https://a.com/'], null, null)], brand);
    expect(silent.searchRate).toBeNull();
    expect(silent.intervals.searchRate).toBeNull();
    expect(silent.topRetrievedDomains).toEqual([]);
    expect(silent.topCitedDomains[0]).toMatchObject({ domain: 'a.com', citationRate: 1, retrievalRate: null });
    expect(silent.topCitedDomains[0]?.retrievalRateInterval).toBeNull();
  });

  it('samples of one prompt are one cluster: three identical samples give the interval of one answer', () => {
    const one = visibilityMetrics([answered('p1', [], true, []), answered('p2', [], false, [])], brand);
    const thrice = visibilityMetrics(
      [1, 2, 3].flatMap(() => [answered('p1', [], true, []), answered('p2', [], false, [])]),
      brand,
    );
    expect(thrice.searchRate).toBe(one.searchRate);
    expect(thrice.intervals.searchRate).toEqual(one.intervals.searchRate);
  });
});
