import { describe, expect, it } from 'vitest';
import { nameMatcher } from '../../src/analysis/text/name-match.js';
import { detectLanguage, norm, roundPartition } from '../../src/analysis/text/norm.js';
import { sentences, words } from '../../src/analysis/text/segment.js';
import { Bm25Index, containment, ngramContainment, counts } from '../../src/analysis/text/similarity.js';
import { stemEnglish } from '../../src/analysis/text/stemmer.js';
import { numbersOf, stripParticle, tokenize } from '../../src/analysis/text/tokens.js';
import { registrableDomain, normalizeCitationUrl } from '../../src/analysis/common/urls.js';

describe('norm and language (§0)', () => {
  it('applies NFKC, drops zero-width characters, straightens quotes and dashes, collapses spaces', () => {
    expect(norm('  “Ｓmart”\u200B phones — ‘2024’  \n edition ')).toBe('"Smart" phones - \'2024\' edition');
  });

  it('detects ko at 20 % Hangul letters, en when Latin dominates, und otherwise', () => {
    expect(detectLanguage('강아지 사료 추천')).toBe('ko');
    expect(detectLanguage('dog food 로얄캐닌 사료')).toBe('ko');
    expect(detectLanguage('The best dog food brand is 로얄캐닌')).toBe('en'); // 4 of 25 letters: 16 % Hangul
    expect(detectLanguage('The best dog food brands for small dogs')).toBe('en');
    expect(detectLanguage('Собака корм')).toBe('und');
    expect(detectLanguage('1234 !!')).toBe('und');
  });
});

describe('segmentation (§1.1)', () => {
  it('keeps "Dr. Smith" in one sentence and merges marker-only segments into the previous one', () => {
    const s = sentences(
      'Dr. Smith studied running shoes for ten years. [1] Cushioned shoes reduce knee load in most runners.',
    );
    expect(s.map((x) => x.text)).toEqual([
      'Dr. Smith studied running shoes for ten years. [1]',
      'Cushioned shoes reduce knee load in most runners.',
    ]);
  });

  it('splits Korean on question marks and merges a short segment into the previous one', () => {
    const s = sentences('소형견 사료는 무엇이 좋을까요? 단백질 함량이 높은 사료가 좋습니다. 네.', 'ko');
    expect(s.map((x) => x.text)).toEqual(['소형견 사료는 무엇이 좋을까요?', '단백질 함량이 높은 사료가 좋습니다. 네.']);
  });

  it('splits digits from a following Hangul counter in word segments', () => {
    expect(words('2024년 3월 강아지사료를', 'ko')).toEqual(['2024', '년', '3', '월', '강아지사료를']);
  });
});

describe('tokens (§1.2)', () => {
  it('makes 강아지사료 and 강아지 사료 share character bigrams', () => {
    const a = new Set(tokenize('강아지사료').tokens);
    const b = new Set(tokenize('강아지 사료').tokens);
    for (const t of ['강아', '아지', '사료']) {
      expect(a.has(t)).toBe(true);
      expect(b.has(t)).toBe(true);
    }
  });

  it('strips one trailing particle only when two syllables remain', () => {
    expect(stripParticle('사료를')).toBe('사료');
    expect(stripParticle('강아지에게')).toBe('강아지');
    expect(stripParticle('나는')).toBe('나는');
  });

  it('drops English stopwords and stems (Porter2)', () => {
    expect(tokenize('The runners were running in the cushioned shoes').tokens).toEqual([
      'runner',
      'run',
      'cushion',
      'shoe',
    ]);
    expect(['generously', 'connection', 'reviews', 'happiness', 'agreed'].map(stemEnglish)).toEqual([
      'generous',
      'connect',
      'review',
      'happi',
      'agre',
    ]);
  });

  it('normalises numbers: thousands separators removed, decimals kept', () => {
    expect(numbersOf('1,000 won, 3.5kg and 2024년')).toEqual(['1000', '3.5', '2024']);
  });
});

describe('similarity (§1.3)', () => {
  it('BM25 ranks the passage sharing rare tokens first and idf is never negative', () => {
    const docs = [
      ['shoe', 'foam', 'knee'],
      ['shoe', 'price'],
      ['shoe', 'lace'],
    ];
    const idx = new Bm25Index(docs);
    expect(idx.top(['foam', 'knee'], 2)[0]?.doc).toBe(0);
    expect(idx.idf('shoe')).toBeGreaterThan(0);
  });

  it('IDF-weighted containment and multiset n-gram containment', () => {
    const idf = (t: string) => (t === 'rare' ? 3 : 1);
    expect(containment(new Set(['rare', 'common']), new Set(['rare']), idf)).toBeCloseTo(0.75, 10);
    expect(ngramContainment(['a b', 'a b', 'b c'], counts(['a b', 'x y']))).toBeCloseTo(1 / 3, 10);
  });

  it('roundPartition keeps rounded shares summing to exactly 1', () => {
    const parts = roundPartition([1, 1, 1]);
    expect(parts).toEqual([0.3334, 0.3333, 0.3333]);
    expect(parts.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});

describe('name matching (§2.11.2, §3.5)', () => {
  it('Latin names need no Latin letter or digit on either side', () => {
    const apple = nameMatcher('Apple');
    expect(apple?.test('apple의 새 시계')).toBe(true);
    expect(apple?.test('apple watch 추천')).toBe(true);
    expect(apple?.test('pineapple juice')).toBe(false);
    expect(apple?.test('apple2 clone')).toBe(false);
  });

  it('Hangul names match with spaces ignored on both sides', () => {
    expect(nameMatcher('로얄 캐닌')?.test('로얄캐닌 미니 후기')).toBe(true);
    expect(nameMatcher('로얄캐닌')?.test('로얄 캐닌 추천')).toBe(true);
  });

  it('short names must be whole words', () => {
    expect(nameMatcher('LG')?.test('LG 냉장고')).toBe(true);
    expect(nameMatcher('LG')?.test('LGU+ 요금')).toBe(false);
    expect(nameMatcher('차')?.test('차 추천')).toBe(true);
    expect(nameMatcher('차')?.test('자동차 추천')).toBe(false);
  });
});

describe('URLs (§2.3)', () => {
  it('unwraps redirectors, drops highlight fragments and utm parameters', () => {
    expect(normalizeCitationUrl('https://www.google.com/url?q=https://Example.com/a?utm_source=x%26b=1')).toBe(
      'https://example.com/a?b=1',
    );
    expect(normalizeCitationUrl('https://example.com/a#:~:text=foo')).toBe('https://example.com/a');
    expect(normalizeCitationUrl('https://search.naver.com/p/crd/rd?m=1&u=https%3A%2F%2Fblog.naver.com%2Fx%2F1')).toBe(
      'https://blog.naver.com/x/1',
    );
  });

  it('registrable domains honour two-label suffixes', () => {
    expect(registrableDomain('news.example.co.kr')).toBe('example.co.kr');
    expect(registrableDomain('www.example.com')).toBe('example.com');
    expect(registrableDomain('127.0.0.1')).toBe('127.0.0.1');
  });
});
