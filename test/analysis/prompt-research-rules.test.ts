import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANALYSIS_DEFAULTS } from '../../src/analysis/config.js';
import { charGrams, clusterKey, clusterTexts } from '../../src/analysis/prompt-research/clusters.js';
import { evidenceOf, rankGain, relativeDemand, type Appearance } from '../../src/analysis/prompt-research/demand.js';
import {
  TermFilter,
  isNavigational,
  isQuestionLike,
  passesScript,
} from '../../src/analysis/prompt-research/filters.js';
import { lexicalFit } from '../../src/analysis/prompt-research/fit.js';
import { selectMonitorSet } from '../../src/analysis/prompt-research/monitor.js';
import { classifyIntent, questionText } from '../../src/analysis/prompt-research/questions.js';
import {
  parseGoogleChrome,
  parseGoogleFirefox,
  parseGoogleGwsWiz,
  parseNaverAc,
} from '../../src/analysis/prompt-research/suggest-parsers.js';
import { UpstreamFailure } from '../../src/domain/engine-errors.js';

const cfg = ANALYSIS_DEFAULTS.pr;
const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/analysis/${name}`, import.meta.url), 'utf8');

describe('near-duplicate merging (§3.6)', () => {
  it('merges spacing variants and keeps different years and intent words apart', () => {
    const texts = [
      '강아지사료 추천',
      '강아지 사료 추천',
      '강아지 사료 추천 2024',
      '강아지 사료 추천 2025',
      '강아지 사료 비교',
      '강아지 사료추천',
    ];
    expect(clusterTexts(texts, cfg.dedup)).toEqual([[0, 1, 5], [2], [3], [4]]);
  });

  it('merges English inflections and articles but not price vs review', () => {
    const texts = [
      'best running shoes for women',
      'best running shoe for the women',
      'running shoes price',
      'running shoes review',
    ];
    expect(clusterTexts(texts, cfg.dedup)).toEqual([[0, 1], [2], [3]]);
    expect(clusterKey('The Best Running Shoes!')).toBe('best run shoe');
    expect(clusterKey('강아지 사료, 추천?')).toBe('강아지사료추천');
  });
});

describe('filters (§3.5)', () => {
  it('drops navigational suggestions', () => {
    expect(isNavigational('running shoes amazon.com', null)).toBe(true);
    expect(isNavigational('www dogfood', null)).toBe(false);
    expect(isNavigational('nike', 'NAVIGATION')).toBe(true);
  });

  it('applies the script rule per market and provider', () => {
    expect(passesScript('royal canin mini', 'KR', 'naver', '강아지 사료')).toBe(true);
    expect(passesScript('royal canin mini', 'KR', 'google', '강아지 사료')).toBe(false);
    expect(passesScript('아이폰 15 가격', 'KR', 'google', 'iphone')).toBe(true);
    expect(passesScript('running shoes 추천', 'US', 'google', 'running shoes')).toBe(false);
    expect(passesScript('ランニングシューズ', 'US', 'google', 'running shoes')).toBe(false);
  });

  it('recognises question-like suggestions in both languages', () => {
    expect(isQuestionLike('how to clean running shoes')).toBe(true);
    expect(isQuestionLike('running shoes for women')).toBe(true);
    expect(isQuestionLike('running shoes nike')).toBe(false);
    expect(isQuestionLike('강아지 사료 뭐가 좋을까')).toBe(true);
    expect(isQuestionLike('강아지 사료 추천')).toBe(true);
    expect(isQuestionLike('강아지 사료 쿠팡')).toBe(false);
  });

  it('brand boundary: Apple removes "apple watch 추천" but not "pineapple"; Hangul ignores spaces', () => {
    const f = new TermFilter(['Apple', '로얄캐닌'], ['중고']);
    expect(f.hasBrand('apple watch 추천')).toBe(true);
    expect(f.hasBrand('pineapple 효능')).toBe(false);
    expect(f.hasBrand('로얄 캐닌 미니 후기')).toBe(true);
    expect(f.hasExcluded('강아지 사료 중고 거래')).toBe(true);
  });
});

describe('question text and intent (§3.8, §3.9)', () => {
  it.each([
    ['best running shoes', 'What are the best running shoes?', 'templated'],
    ['hoka vs nike', 'Which is better, hoka or nike?', 'templated'],
    ['running shoes for flat feet', 'Which running shoes are best for flat feet?', 'templated'],
    ['running shoes near me', 'Where can I find running shoes near me?', 'templated'],
    ['running shoes price', 'How much do running shoes cost?', 'templated'],
    ['running shoes reviews', 'What do reviews say about running shoes?', 'templated'],
    ['hoka alternatives', 'What are the best alternatives to hoka?', 'templated'],
    ['pronation meaning', 'What does pronation mean?', 'templated'],
    ['running shoes nike', 'What should I know about running shoes nike?', 'templated'],
    ['how to clean running shoes', 'How do I clean running shoes?', 'templated'],
    ['강아지 사료 추천', '강아지 사료 추천해줘', 'templated'],
    ['강아지 사료 비교', '강아지 사료 비교해줘', 'templated'],
    ['강아지 사료 차이', '강아지 사료 차이가 뭐야?', 'templated'],
    ['강아지 사료 바꾸는법', '강아지 사료 바꾸는 방법 알려줘', 'templated'],
    ['강아지 사료 뜻', '강아지 사료 뜻이 뭐야?', 'templated'],
    ['강아지 사료 가격', '강아지 사료 가격은 얼마야?', 'templated'],
    ['강아지 사료 후기', '강아지 사료 후기 알려줘', 'templated'],
    ['강아지 사료 쿠팡', '강아지 사료 쿠팡에 대해 알려줘', 'templated'],
    ['강아지 사료 뭐가 좋을까', '강아지 사료 뭐가 좋을까', 'observed'],
  ])('%s → %s', (query, text, origin) => {
    expect(questionText(query)).toEqual({ text, origin });
  });

  it('classifies intents by first match', () => {
    expect(classifyIntent('best running shoes vs hoka')).toEqual({ intent: 'comparison', modifier: 'vs' });
    expect(classifyIntent('강아지 사료 추천')).toEqual({ intent: 'recommendation', modifier: '추천' });
    expect(classifyIntent('running shoes near me').intent).toBe('transactional');
    expect(classifyIntent('what is pronation').intent).toBe('definition');
    expect(classifyIntent('강아지 사료 바꾸는 방법').intent).toBe('how_to');
    expect(classifyIntent('강아지 사료 부작용').intent).toBe('problem');
    expect(classifyIntent('running shoes nike')).toEqual({ intent: 'other', modifier: null });
  });
});

describe('demand (§3.7)', () => {
  it('g(k) = 1/log2(1+k); scores and tiers on the autocomplete basis', () => {
    expect(rankGain(1)).toBe(1);
    expect(rankGain(10)).toBeCloseTo(0.289, 3);
    expect(relativeDemand(3, 3)).toEqual({ score: 100, tier: 5 });
    expect(relativeDemand(0.5, 3)).toEqual({ score: 29, tier: 2 });
    expect(relativeDemand(0, 3)).toEqual({ score: 0, tier: 1 });
  });

  it('counts only the best-ranked member per request and weighs provider and prefix class', () => {
    const apps: Appearance[] = [
      { provider: 'naver', requestId: 'naver:1:0', cls: 'seed', rank: 1, relevanceShare: null },
      { provider: 'naver', requestId: 'naver:1:0', cls: 'seed', rank: 2, relevanceShare: null },
      { provider: 'google', requestId: 'google:1:3', cls: 'modifier', rank: 3, relevanceShare: null },
    ];
    const e = evidenceOf(
      apps,
      new Map([
        ['naver', 0.6],
        ['google', 0.4],
      ]),
      cfg.weights.prefix,
      ['naver', 'google'],
    );
    expect(e.autocompleteScore).toBeCloseTo(0.6 * 1 * 1 + 0.4 * 0.7 * 0.5, 10);
    expect(e).toMatchObject({ appearances: 2, providers: ['naver', 'google'], bestRank: 1, seenForSeed: true });
  });
});

describe('fit and monitor set (§3.10, §3.12)', () => {
  it('lexical fit ignores the seed and scales by the best candidate', () => {
    const fit = lexicalFit(
      ['강아지 사료 추천 소형견', '강아지 사료 쿠팡', '강아지 사료 노견'],
      '소형견과 노견을 위한 프리미엄 사료',
      '강아지 사료',
      'ko',
    );
    expect(fit[0]).toBeGreaterThan(0);
    expect(Math.max(...fit)).toBe(1);
    expect(fit[1]).toBe(0);
  });

  it('MMR skips a near-duplicate while others remain and rewards a new intent', () => {
    const grams = (s: string) => charGrams(clusterKey(s), 3);
    const pool = [
      { grams: grams('best running shoes for women'), intent: 'recommendation' as const, value: 1 },
      { grams: grams('best running shoes for womens'), intent: 'recommendation' as const, value: 0.95 },
      { grams: grams('running shoes price'), intent: 'transactional' as const, value: 0.5 },
      { grams: grams('how to clean running shoes'), intent: 'how_to' as const, value: 0.45 },
    ];
    const picks = selectMonitorSet(pool, 3, cfg.monitor);
    expect(picks.map((p) => p.poolIndex)).toEqual([0, 2, 3]);
    const all = selectMonitorSet(pool, 4, cfg.monitor);
    expect(all.map((p) => p.poolIndex)).toEqual([0, 2, 3, 1]);
    expect(all[3]?.maxSimilarity).toBeGreaterThanOrEqual(cfg.monitor.maxSim);
  });
});

describe('autocomplete parsers over saved bodies (§3.4)', () => {
  it('Google firefox: rank only', () => {
    const p = parseGoogleFirefox(fixture('google-firefox.json'));
    expect(p.echo).toBe('running shoes');
    expect(p.suggestions[0]).toEqual({ text: 'running shoes for women', relevance: null, type: null });
    expect(p.suggestions).toHaveLength(8);
  });

  it('Google chrome: types and relevance', () => {
    const p = parseGoogleChrome(fixture('google-chrome.json'));
    expect(p.suggestions.map((s) => s.type)).toEqual(['QUERY', 'QUERY', 'NAVIGATION', 'QUERY', 'ENTITY']);
    expect(p.suggestions[0]?.relevance).toBe(1250);
  });

  it('Google gws-wiz: anti-JSON prefix, <b> markup and entities stripped', () => {
    const p = parseGoogleGwsWiz(fixture('google-gws-wiz.txt'));
    expect(p.suggestions.map((s) => s.text)).toEqual([
      'running shoes for women',
      'running shoes & socks',
      'best running shoes',
    ]);
    expect(p.echo).toBe('running shoes');
  });

  it('Naver ac: items[0][i][0]; an empty list is a legitimate answer', () => {
    expect(parseNaverAc(fixture('naver-ac.json')).suggestions.map((s) => s.text)).toEqual([
      '강아지 사료 추천',
      '강아지사료 추천',
      '강아지 사료 순위',
      'royal canin mini',
      '강아지 사료 쿠팡',
    ]);
    expect(parseNaverAc(fixture('naver-ac-empty.json')).suggestions).toEqual([]);
  });

  it('drifted bodies raise LAYOUT_CHANGED instead of an empty success', () => {
    for (const [parse, body] of [
      [parseNaverAc, fixture('naver-ac-drifted.json')],
      [parseGoogleFirefox, fixture('google-drifted.json')],
      [parseGoogleChrome, '<html>oops</html>'],
    ] as const) {
      let err: unknown;
      try {
        parse(body);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UpstreamFailure);
      expect((err as UpstreamFailure).kind).toBe('LAYOUT_CHANGED');
    }
  });
});
